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
// a [SuggestedFix] made of byte [Edit]s. [Fold] makes one diagnostic of
// the repeats of one problem.
//
// # Checks
//
// Each check is a value with its code, name, severity, families, doc and
// a reported and a clean example; [Checks] lists them and [Lookup] finds
// one by code or name. They are grouped by section, one file per section
// named by the first digit of the code: rb1_fetch.go (RB1xx, how the file
// was fetched), rb2_file.go (RB2xx, the file as a whole: size, encoding),
// rb3_syntax.go (RB3xx, lines and keys), rb4_groups.go (RB4xx, group
// structure), rb5_rules.go (RB5xx, Allow and Disallow values),
// rb6_extensions.go (RB6xx, Sitemap, Crawl-delay and the other
// extensions) and rb7_cross.go (RB7xx, where robot families read the same
// file differently). Each check's test data is
// testdata/checks/RBnnn*.txtar; docs/checks.md is generated from the
// registry.
//
// # Fixes and their proof
//
// [Fix] applies the fixes of one [Class]: by default those that keep the
// verdict of every Google and RFC 9309 robot for every URL. Each round of
// fixes is proven with [Equivalent], which compiles both texts with
// package robots under both profiles and compares, for every agent either
// text names and for the robots that read the "*" groups, the rules that
// decide for it (robots.Rules.AgentRules); URLs are tried only where
// those rule sets differ. A fix that would change a verdict is refused
// and reported ([Refusal]). Fixes that change verdicts on purpose (the
// author's intent) are applied only when named ([FixOptions]). [Format]
// lays a file out canonically under the same proof, and [Diff] reports
// what a change does to each robot's verdicts.
//
// By default Run reports only what affects a major family (Google, Bing,
// Yandex and the other RFC 9309 robots); [Config].AllRobots reports the
// rest too.
package lint
