package aipref

// A Label is a key of the AIPREF vocabulary's serialization
// (draft-ietf-aipref-vocab §6.1), of the current revision or an earlier
// one.
type Label struct {
	// Name is the label as written: labels are case sensitive (vocab-08
	// §6.1).
	Name string
	// Purpose is what the label speaks of in draft-ietf-aipref-vocab-08;
	// NumPurposes for a label of an earlier revision only, which -08
	// ignores as unknown (§6.4).
	Purpose Purpose
	// Current is set for the labels of -08.
	Current bool
	// Drafts are the revisions of draft-ietf-aipref-vocab that have the
	// label, such as "-02 to -04".
	Drafts string
	// Note says what the label meant and, for an earlier revision's
	// label, what -08 uses instead.
	Note string
}

// labels is the versioned vocabulary: the §6.1 tables of each revision of
// draft-ietf-aipref-vocab (-00 had no serialization). Sources: the
// revisions on the IETF datatracker and the gh-pages builds of the working
// group's repository (https://github.com/ietf-wg-aipref/drafts); the
// renames are its pull requests #82 ("Rename all the categories", before
// -02), #140 ("Rename 'all' to 'bots'", before -03) and #176 ("AI Output
// and Search categories", -04), and ai-use came back in -08 from issue
// #172 ("Missing Category for RAG and Grounding").
var labels = [...]Label{
	{Name: "train-ai", Purpose: AITrain, Current: true, Drafts: "-02 to -08",
		Note: "AI Training (§4.1): using the asset to modify the learned parameters of a generative AI model"},
	{Name: "ai-use", Purpose: AIInput, Current: true, Drafts: "-02, -08",
		Note: "AI Use (§4.2): using the asset as input to a generative AI model, when the user did not provide it directly; dropped in -03, back in -08"},
	{Name: "search", Purpose: Search, Current: true, Drafts: "-01 to -08",
		Note: "Search (§4.3): selecting assets and directing users to their location; it overrides the other categories"},
	{Name: "tdm", Purpose: NumPurposes, Drafts: "-01",
		Note: "Text and Data Mining, the top category of -01; -08 has no equivalent"},
	{Name: "ai", Purpose: NumPurposes, Drafts: "-01",
		Note: "AI Training in -01, renamed train-ai in -02; -08 uses train-ai"},
	{Name: "genai", Purpose: NumPurposes, Drafts: "-01",
		Note: "Generative AI Training in -01; -08's train-ai is the training of generative AI models (§4.1)"},
	{Name: "inference", Purpose: NumPurposes, Drafts: "-01",
		Note: "AI Inference in -01, renamed AI Use (ai-use) in -02; -08 uses ai-use"},
	{Name: "all", Purpose: NumPurposes, Drafts: "-02",
		Note: "Automated Processing, the top category of -02, renamed bots in -03; -08 has no equivalent"},
	{Name: "train-genai", Purpose: NumPurposes, Drafts: "-02 to -03",
		Note: "Generative AI Training, under train-ai, in -02 and -03; -08's train-ai is the training of generative AI models (§4.1)"},
	{Name: "bots", Purpose: NumPurposes, Drafts: "-03 to -04",
		Note: "Automated Processing, the top category of -03 and -04; -08 has no equivalent"},
	{Name: "ai-output", Purpose: NumPurposes, Drafts: "-04",
		Note: "AI Output in -04, with search under it; -08 uses ai-use for assets given to a generative AI model"},
}

// replacement is the -08 label that does what an earlier revision's label
// did, where there is one.
var replacement = map[string]string{
	"ai":          "train-ai",
	"genai":       "train-ai",
	"train-genai": "train-ai",
	"inference":   "ai-use",
	"ai-output":   "ai-use",
}

// Labels returns the labels of draft-ietf-aipref-vocab-08 (train-ai, ai-use,
// search) and then those of its earlier revisions, with the revisions that
// had them. The slice is the caller's.
func Labels() []Label {
	out := make([]Label, len(labels))
	copy(out, labels[:])
	return out
}

// LookupLabel returns the label named name, compared exactly: labels are
// case sensitive (vocab-08 §6.1).
func LookupLabel(name string) (Label, bool) {
	for _, l := range labels {
		if l.Name == name {
			return l, true
		}
	}
	return Label{}, false
}

// currentLabel returns the purpose of a label of -08.
func currentLabel(name string) (Purpose, bool) {
	switch name {
	case "train-ai":
		return AITrain, true
	case "ai-use":
		return AIInput, true
	case "search":
		return Search, true
	}
	return 0, false
}

// labelOf returns the -08 label of a purpose.
func labelOf(p Purpose) string {
	switch p {
	case AITrain:
		return "train-ai"
	case AIInput:
		return "ai-use"
	}
	return "search"
}
