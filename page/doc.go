// Package page shows a page as one robot sees it: whether robots.txt lets
// the robot fetch it, what the fetch returns (status, redirects, headers),
// which indexing directives of its X-Robots-Tag headers and robots <meta>
// tags apply to the robot, and what follows: may the robot crawl the
// page, index it, follow its links, show a snippet, and until when.
//
// Seed 004 asks webmasters to "examine your site the same way as Google
// does"; its note on indexing controls is the trap this package reports
// first: "in order for a crawler to find a meta tag or HTTP header element,
// the crawler must be able to crawl the page". A noindex on a page that
// robots.txt disallows is never seen.
//
//	var in page.Inspector
//	rep, err := in.Inspect(ctx, "https://example.com/private/report", page.RobotNamed("Googlebot"))
//	// rep.Crawlable, rep.Indexable, rep.Follow, rep.Snippet, rep.Warnings
//
// The Inspector fetches robots.txt through package fetch with the robot's
// status rules and profile, follows redirects itself (checking each target
// against its own robots.txt), reads at most MaxBytes of the page (2 MiB,
// Googlebot's limit for HTML, by default), and never fails on a bad page:
// network and HTTP problems are part of the Report.
package page
