package wire

import (
	"github.com/robotskit/robots/lint"
)

// SARIF 2.1.0 (OASIS) as far as the checker uses it: one run, the checks as
// the tool's rules, the diagnostics as results with their fixes.
type (
	// SARIF is a SARIF log.
	SARIF struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []SARIFRun `json:"runs"`
	}
	// SARIFRun is one run of the checker.
	SARIFRun struct {
		Tool       SARIFTool       `json:"tool"`
		ColumnKind string          `json:"columnKind"`
		Results    []SARIFResult   `json:"results"`
		Artifacts  []SARIFArtifact `json:"artifacts,omitempty"`
	}
	// SARIFTool names the checker and lists its rules.
	SARIFTool struct {
		Driver SARIFDriver `json:"driver"`
	}
	// SARIFDriver is the checker.
	SARIFDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []SARIFRule `json:"rules"`
	}
	// SARIFRule is one check.
	SARIFRule struct {
		ID                   string          `json:"id"`
		Name                 string          `json:"name"`
		ShortDescription     SARIFMessage    `json:"shortDescription"`
		FullDescription      SARIFMessage    `json:"fullDescription"`
		DefaultConfiguration SARIFRuleConfig `json:"defaultConfiguration"`
		Properties           map[string]any  `json:"properties,omitempty"`
	}
	// SARIFRuleConfig is a rule's default level.
	SARIFRuleConfig struct {
		Level string `json:"level"`
	}
	// SARIFMessage is a text.
	SARIFMessage struct {
		Text string `json:"text"`
	}
	// SARIFResult is one diagnostic.
	SARIFResult struct {
		RuleID           string          `json:"ruleId"`
		RuleIndex        int             `json:"ruleIndex"`
		Level            string          `json:"level"`
		Message          SARIFMessage    `json:"message"`
		Locations        []SARIFLocation `json:"locations"`
		RelatedLocations []SARIFLocation `json:"relatedLocations,omitempty"`
		Fixes            []SARIFFix      `json:"fixes,omitempty"`
		Properties       map[string]any  `json:"properties,omitempty"`
	}
	// SARIFLocation is a place in the file.
	SARIFLocation struct {
		ID               *int                  `json:"id,omitempty"`
		PhysicalLocation SARIFPhysicalLocation `json:"physicalLocation"`
		Message          *SARIFMessage         `json:"message,omitempty"`
	}
	// SARIFPhysicalLocation is a file and, for a line, a region.
	SARIFPhysicalLocation struct {
		ArtifactLocation SARIFArtifactLocation `json:"artifactLocation"`
		Region           *SARIFRegion          `json:"region,omitempty"`
	}
	// SARIFArtifactLocation names the file.
	SARIFArtifactLocation struct {
		URI string `json:"uri"`
	}
	// SARIFArtifact describes the file.
	SARIFArtifact struct {
		Location SARIFArtifactLocation `json:"location"`
		Encoding string                `json:"encoding,omitempty"`
	}
	// SARIFRegion is a line and column, or a byte range for a fix.
	SARIFRegion struct {
		StartLine   int  `json:"startLine,omitempty"`
		StartColumn int  `json:"startColumn,omitempty"`
		ByteOffset  *int `json:"byteOffset,omitempty"`
		ByteLength  *int `json:"byteLength,omitempty"`
	}
	// SARIFFix is a suggested fix.
	SARIFFix struct {
		Description     SARIFMessage          `json:"description"`
		ArtifactChanges []SARIFArtifactChange `json:"artifactChanges"`
	}
	// SARIFArtifactChange is the edits of a fix to the file.
	SARIFArtifactChange struct {
		ArtifactLocation SARIFArtifactLocation `json:"artifactLocation"`
		Replacements     []SARIFReplacement    `json:"replacements"`
	}
	// SARIFReplacement is one edit.
	SARIFReplacement struct {
		DeletedRegion   SARIFRegion   `json:"deletedRegion"`
		InsertedContent *SARIFContent `json:"insertedContent,omitempty"`
	}
	// SARIFContent is inserted text.
	SARIFContent struct {
		Text string `json:"text"`
	}
)

// sarifLevels maps severities to SARIF levels.
var sarifLevels = map[lint.Severity]string{lint.Info: "note", lint.Warning: "warning", lint.Error: "error"}

// NewSARIF returns the SARIF log of a check of the file at uri: the
// registry's checks as rules, ds as results. Diagnostics of the whole file
// or its fetch have a location without a region (SARIF regions start at
// line 1). A problem found on several lines is a result at each line (SARIF
// shows a result at its first location only), the first place first: each
// needs the change.
func NewSARIF(uri, version string, ds []lint.Diagnostic) *SARIF {
	checks := lint.Checks()
	index := map[string]int{}
	rules := make([]SARIFRule, len(checks))
	for i, c := range checks {
		index[c.Code] = i
		props := map[string]any{"families": families(c.Affects), "section": string(c.Section())}
		if c.Fix != "" {
			props["fix"] = c.Fix
		}
		if c.Thorough {
			props["thorough"] = true
		}
		rules[i] = SARIFRule{
			ID: c.Code, Name: c.Name,
			ShortDescription:     SARIFMessage{Text: c.Title},
			FullDescription:      SARIFMessage{Text: c.Doc},
			DefaultConfiguration: SARIFRuleConfig{Level: sarifLevels[c.Severity]},
			Properties:           props,
		}
	}
	art := SARIFArtifactLocation{URI: uri}
	results := make([]SARIFResult, 0, len(ds))
	for _, d := range ds {
		loc := SARIFLocation{PhysicalLocation: SARIFPhysicalLocation{ArtifactLocation: art}}
		if d.Line > 0 {
			loc.PhysicalLocation.Region = &SARIFRegion{StartLine: d.Line, StartColumn: max(d.Column, 1)}
		}
		r := SARIFResult{
			RuleID: d.Check.Code, RuleIndex: index[d.Check.Code],
			Level:      sarifLevels[d.Check.Severity],
			Message:    SARIFMessage{Text: d.Message},
			Locations:  []SARIFLocation{loc},
			Properties: map[string]any{"families": families(d.Families())},
		}
		for i, rel := range d.Related {
			id := i + 1
			r.RelatedLocations = append(r.RelatedLocations, SARIFLocation{
				ID:               &id,
				PhysicalLocation: SARIFPhysicalLocation{ArtifactLocation: art, Region: &SARIFRegion{StartLine: max(rel.Line, 1)}},
				Message:          &SARIFMessage{Text: rel.Note},
			})
		}
		if d.Fix != nil {
			ch := SARIFArtifactChange{ArtifactLocation: art}
			for _, e := range d.Fix.Edits {
				off, n := e.Start, e.End-e.Start
				rep := SARIFReplacement{DeletedRegion: SARIFRegion{ByteOffset: &off, ByteLength: &n}}
				if e.New != "" {
					rep.InsertedContent = &SARIFContent{Text: e.New}
				}
				ch.Replacements = append(ch.Replacements, rep)
			}
			r.Fixes = []SARIFFix{{
				Description:     SARIFMessage{Text: d.Fix.ID + " (" + d.Fix.Class.String() + "): " + d.Fix.Message},
				ArtifactChanges: []SARIFArtifactChange{ch},
			}}
		}
		for _, m := range d.Lines[min(1, len(d.Lines)):] {
			id := len(r.RelatedLocations) + 1
			r.RelatedLocations = append(r.RelatedLocations, SARIFLocation{
				ID:               &id,
				PhysicalLocation: SARIFPhysicalLocation{ArtifactLocation: art, Region: &SARIFRegion{StartLine: m}},
				Message:          &SARIFMessage{Text: "the same problem"},
			})
		}
		results = append(results, r)
		// A problem found on several lines (lint.Fold) is a result at
		// each of them, so that code scanning shows every line; the
		// others are its related locations, and the fix, which mends
		// them all, goes with the first.
		for _, n := range d.Lines[min(1, len(d.Lines)):] {
			again := r
			again.Locations = []SARIFLocation{{PhysicalLocation: SARIFPhysicalLocation{ArtifactLocation: art, Region: &SARIFRegion{StartLine: n}}}}
			again.RelatedLocations = nil
			again.Fixes = nil
			for _, m := range d.Lines {
				if m != n {
					id := len(again.RelatedLocations) + 1
					again.RelatedLocations = append(again.RelatedLocations, SARIFLocation{
						ID:               &id,
						PhysicalLocation: SARIFPhysicalLocation{ArtifactLocation: art, Region: &SARIFRegion{StartLine: m}},
						Message:          &SARIFMessage{Text: "the same problem"},
					})
				}
			}
			results = append(results, again)
		}
	}
	return &SARIF{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []SARIFRun{{
			Tool: SARIFTool{Driver: SARIFDriver{
				Name: "robots", Version: version,
				InformationURI: "https://github.com/robotskit/robots",
				Rules:          rules,
			}},
			ColumnKind: "unicodeCodePoints",
			Results:    results,
			Artifacts:  []SARIFArtifact{{Location: art, Encoding: "utf-8"}},
		}},
	}
}
