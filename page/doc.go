// Package page shows a page as one robot sees it: whether robots.txt lets
// the robot fetch it, what the fetch returns (status, redirects, headers),
// which indexing directives of its X-Robots-Tag headers and robots <meta>
// tags apply to the robot, and what follows: may the robot crawl the
// page, index it, follow its links, show a snippet, and until when.
//
// The trap this package reports first is the one Google's robots meta tag
// documentation warns about
// (https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag):
// a robot finds a robots <meta> tag or an X-Robots-Tag header only on a
// page it may crawl, so a noindex on a page that robots.txt disallows is
// never seen.
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
