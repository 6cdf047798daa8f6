package scan

import "time"

// A Row is what Analyze finds in one Capture. Its JSON and Parquet column
// names are the contract of `robots scan`'s output; docs/scan.md lists
// them with the SQL that reads them.
type Row struct {
	URL    string    `json:"url" parquet:"url"`
	Host   string    `json:"host" parquet:"host"`
	Domain string    `json:"domain" parquet:"domain"` // registered domain, by the public suffix list
	Time   time.Time `json:"time,omitzero" parquet:"time,optional,timestamp(millisecond)"`
	Source string    `json:"source,omitempty" parquet:"source"`
	Offset int64     `json:"offset" parquet:"offset"`

	Status      int    `json:"status" parquet:"status"`
	RedirectTo  string `json:"redirect_to,omitempty" parquet:"redirect_to"`
	ContentType string `json:"content_type,omitempty" parquet:"content_type"`
	HTML        bool   `json:"html" parquet:"html"`             // the body is an HTML page, not a robots.txt
	Bytes       int64  `json:"bytes" parquet:"bytes"`           // payload size
	OverLimit   bool   `json:"over_limit" parquet:"over_limit"` // more than 500 KiB
	Truncated   bool   `json:"truncated,omitempty" parquet:"truncated"`
	Revisit     bool   `json:"revisit,omitempty" parquet:"revisit"`
	// Encoding is the character encoding of a 2xx body, by its bytes
	// (Encoding* constants); "" for an empty body or another status. BOM
	// is set when the body starts with a byte order mark.
	Encoding string `json:"encoding,omitempty" parquet:"encoding"`
	BOM      bool   `json:"bom,omitempty" parquet:"bom"`

	// Outcomes holds the outcome under each fetch policy, in the order of
	// fetch.Policies.
	Outcomes []Outcome `json:"outcomes" parquet:"outcomes,list"`

	// Directives counts the lines of each key, lower-cased as written
	// ("disallow", "dissallow", "user-agent"), unknown keys included.
	Directives []KeyCount `json:"directives" parquet:"directives,list"`
	Groups     int        `json:"groups" parquet:"groups"`
	Rules      int        `json:"rules" parquet:"rules"`
	Sitemaps   int        `json:"sitemaps" parquet:"sitemaps"`
	// Agents holds every User-agent value, in file order.
	Agents []AgentValue `json:"agents" parquet:"agents,list"`

	// ContentSignal, ContentUsage and License hold the values of the
	// file's Content-Signal lines (contentsignals.org), Content-Usage
	// lines (draft-ietf-aipref-attach-05 §3: an optional path, then the
	// preferences) and License lines (RSL 1.0), as written, in file order,
	// whatever group they are in.
	ContentSignal []string `json:"content_signal,omitempty" parquet:"content_signal,list"`
	ContentUsage  []string `json:"content_usage,omitempty" parquet:"content_usage,list"`
	License       []string `json:"license,omitempty" parquet:"license,list"`

	// Robots holds a verdict for each selected robot, in the order of
	// Options.Robots.
	Robots []Verdict `json:"robots" parquet:"robots,list"`

	// Lint holds the codes the checker reported, when asked for
	// (Options.Lint); LintTimeout is set when it ran out of its budget.
	Lint        []string `json:"lint,omitempty" parquet:"lint,list"`
	LintTimeout bool     `json:"lint_timeout,omitempty" parquet:"lint_timeout"`
}

// An Outcome is how robots of one fetch policy read the response:
// "rules", "unavailable" (crawl everything), "forbidden" (crawl nothing)
// or "unreachable" (an outage: crawl nothing for now).
type Outcome struct {
	Policy  string `json:"policy" parquet:"policy"`
	Outcome string `json:"outcome" parquet:"outcome"`
}

// A KeyCount is how many lines have a key.
type KeyCount struct {
	Key   string `json:"key" parquet:"key"`
	Count int    `json:"count" parquet:"count"`
}

// An AgentValue is one User-agent line's value: as written, lower-cased,
// and as the RFC 9309 product token a Google or RFC 9309 parser compares.
type AgentValue struct {
	Value string `json:"value" parquet:"value"`
	Lower string `json:"lower" parquet:"lower"`
	Token string `json:"token" parquet:"token"`
	Line  int    `json:"line" parquet:"line"`
}

// A Verdict is what one robot does on the site: robots.Access in its
// words ("open", "partly", "blocked"; "named", "fallback", "star",
// "none"), as every command and the API report it, the group's
// Crawl-delay, and whether it may train AI models on "/".
type Verdict struct {
	// Robot is the robot's token in the registry.
	Robot string `json:"robot" parquet:"robot"`
	// State is robots.Access.State: "blocked" (nothing allowed),
	// "partly" (some paths allowed and some disallowed) or "open" (no
	// path disallowed).
	State string `json:"state" parquet:"state"`
	// Via is robots.Access.Via: how its group was found, "named" (a
	// group names its token), "fallback" (a group names a token it falls
	// back to), "star" (the "*" groups) or "none" (no group, or no file).
	Via string `json:"via" parquet:"via"`
	// Line is the line of the rule that decides "/", 0 when none does;
	// Group the line of the first User-agent line of its groups, 0 when
	// none applies.
	Line  int `json:"line" parquet:"line"`
	Group int `json:"group" parquet:"group"`
	// CrawlDelay is the group's Crawl-delay in seconds, 0 when none.
	CrawlDelay float64 `json:"crawl_delay,omitempty" parquet:"crawl_delay"`
	// AITrain is what usage.Decide says of "/" for the robot's ai-train
	// purpose, from the file alone: "yes", "no" or "none" (no preference,
	// and always for a robot that may not crawl "/").
	AITrain string `json:"ai_train" parquet:"ai_train"`
}
