// Package lint checks robots.txt files: every problem with its line, the
// robot families it affects and, where one exists, a fix; and it applies
// the fixes that provably keep what robots read.
//
// # From bytes to a diagnostic
//
// A file is parsed once by package syntax into a lossless tree of lines.
// [Run] reads the tree into the checker's model: each line with the
// directive its key names (exactly, as a variant Google accepts, or as a
// likely misspelling) and the group it belongs to, a group being a run of
// User-agent lines and the lines up to the next such run, as RFC 9309
// §2.1 and Google's parser read them. Every [Check] then runs over that
// model in one pass, in code order, and reports [Diagnostic] values: a
// line and column, a message, the families affected ([Family]) and maybe
// a [SuggestedFix] made of byte edits ([Edit]). [Fold] makes one diagnostic of
// the repeats of one problem.
//
// The model is the checker's own, not the groups of the compiled rules
// (robots.Rules.Groups). Compiled rules keep what a robot obeys and drop
// the rest, while a checker must see exactly what they drop, and where it
// stands: invalid lines, rules before any User-agent line, misspelled
// keys, the blank lines and comments between lines of one group, values
// as written. Each line of the model keeps its position in the file, so
// that a finding can point at it and a fix can edit it. The compiled
// rules come in where a verdict is at stake: a fix is proven with them.
//
// # Checks
//
// Each check is a value with its code, name, severity, families, doc and
// a reported and a clean example; [Checks] lists them and [Lookup] finds
// one by code or name. They are grouped by section, named by the first
// digit of the code, one package each under lint/internal/checks: fetch
// (RB1xx, how the file was fetched), file (RB2xx, the file as a whole:
// size, encoding), lines (RB3xx, lines and keys), groups (RB4xx, group
// structure), rules (RB5xx, Allow and Disallow values), ext (RB6xx,
// Sitemap, Crawl-delay and the other extensions) and cross (RB7xx, where
// robot families read the same file differently). They share the pass
// and the model of lint/internal/check. Each check's test data is
// testdata/checks/RBnnn*.txtar; docs/checks.md is generated from the
// registry.
//
// # Fixes and their proof
//
// [Fix] applies the fixes of one [FixClass]: by default those that keep
// the verdict of every Google and RFC 9309 robot for every URL. Each round
// of fixes is proven with package change ([change.Prover]), which compiles
// both texts with package robots under both profiles and compares, for
// every agent either text names and for the robots that read the "*"
// groups, the rules that decide for it (robots.Rules.AgentRules); URLs are
// tried only where those rule sets differ. A fix that would change a
// verdict is refused and reported ([Refusal]). Fixes that change verdicts
// on purpose (the author's intent) are applied only when named
// ([FixOptions]). [Format] lays a file out canonically under the same
// proof ([change.Equivalent]); [change.Compare] reports what a change does
// to each robot's verdicts.
//
// # Turning checks off
//
// [Config].Enable and [Config].Disable select the checks that run, by code,
// name, section (Check.SectionName), severity or "all", the most specific
// entry winning; Config.Validate reports an entry that names nothing, with
// the closest codes ([Closest]). A comment "# robots:ignore RB501 reason" on
// a line of its own silences the findings of RB501 on the next line that
// is neither blank nor a comment: the pass drops them as each check
// returns, so the fixer leaves them too. RB314 reports such a comment
// without a reason or naming no check, RB315 one that silenced nothing.
// [WriteTextWith] cuts the text short after [TextOptions].MaxSame findings of
// a check and colours it for a terminal.
//
// By default Run reports only what affects a major family (Google, Bing,
// Yandex and the other RFC 9309 robots); [Config].AllRobots reports the
// rest too.
//
// # Cost
//
// Most files cost tens of thousands of units of work, well under a
// millisecond; some checks compare each rule with the others, or prove a
// fix, and cost far more on a file built for it. The work is counted, not
// timed: each step is charged a weight in units, the same on any machine,
// and [RunContext] stops with [ErrBudget] when it runs past
// [Config].MaxWork, so that a file always fits in a bound or never does
// ([DefaultMaxWork] suits a crawl). A context's deadline bounds the time
// as well, for callers that wait for an answer.
package lint
