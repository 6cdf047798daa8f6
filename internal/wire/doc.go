// Package wire holds the JSON shapes that the CLI's -format json and the
// web API share (docs/schema), the SARIF report of the checker, and pure
// conversions from the library's types to them: Trace (a fetch.Result),
// Summarize (a syntax.File), Diagnostics and Leftovers (lint's findings),
// NewSARIF.
//
// It does no I/O: no net/http, no context, no fetching. Fetching a site's
// robots.txt for the checker is package internal/sitecheck's; deciding
// which findings concern a profile is package lint's (lint.ForProfile).
package wire
