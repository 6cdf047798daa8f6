package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/robotskit/robots/agents"
)

var agentsCmd = &command{
	name:  "agents",
	usage: "[-purpose P] [-format text|json]",
	short: "list the known robots",
}

func init() { agentsCmd.run = runAgents }

// purposeList names the purposes -purpose takes.
const purposeList = "search, ads, ai-training, ai-search, ai-user, seo, archive, social, other"

func runAgents(e *env, args []string) error {
	fs := newFlags(e, agentsCmd)
	purpose := fs.String("purpose", "", "only robots with purpose `P`: "+purposeList+", or ai for the three AI purposes")
	format := fs.String("format", "text", "output `format`: text or json")
	if err := parseFlags(e, agentsCmd, fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &usageError{msg: "agents takes no arguments"}
	}
	list := agents.All()
	switch *purpose {
	case "":
	case "ai":
		// Every AI purpose: training, search and user fetches.
		list = agents.AIRobots()
	default:
		p, err := agents.ParsePurpose(*purpose)
		if err != nil {
			return &usageError{msg: fmt.Sprintf("-purpose %q: use one of %s, or ai for the three AI purposes", *purpose, purposeList)}
		}
		list = agents.ByPurpose(p)
	}
	if *format == "json" {
		return writeJSON(e.stdout, list)
	}
	tw := tabwriter.NewWriter(&trimWriter{w: e.stdout}, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOKEN\tOWNER\tPURPOSE\tOBEYS\tPROFILE\tREADS")
	for _, r := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Token, r.Owner, r.Purpose, r.Obeys, r.Profile, reads(r))
	}
	return tw.Flush()
}

// reads says in a few words which groups the robot obeys.
func reads(r agents.Robot) string {
	var parts []string
	if r.WholeName() {
		// RFC 9309 §2.2.1 and Google's parser would compare only the
		// token's leading [A-Za-z_-]; the robot is read as its operator
		// documents it (robots.Agent.WholeName).
		parts = append(parts, "whole name (not an RFC 9309 token)")
	}
	if len(r.Fallback) > 0 {
		parts = append(parts, "then "+strings.Join(r.Fallback, ", then "))
	}
	if r.IgnoresGlobal {
		parts = append(parts, `never "*"`)
	}
	if r.TokenOnly {
		parts = append(parts, "control token, no crawler")
	}
	if r.Retired {
		s := "retired"
		if r.Successor != "" {
			s += ": use " + r.Successor
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}
