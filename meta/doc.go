// Package meta reads the indexing controls of a page: the robots <meta>
// tags of its HTML and the X-Robots-Tag and Robots-Tag response headers.
//
// robots.txt governs crawling; these govern indexing and serving, per
// robot (Google's robots meta tag and X-Robots-Tag documentation,
// https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag).
// The package parses every source into [Directive] values that keep where
// they came from, and [For] combines them for one robot into a [Verdict]:
//
//	ds := meta.FromHeader(resp.Header)
//	doc, _ := meta.ReadHTML(body, meta.DefaultMaxBytes)
//	ds = append(ds, doc.Directives...)
//	v := meta.For(ds, "Googlebot")
//	if !v.Indexable(time.Now()) { … }
//
// # Sources
//
//   - <meta name="robots" content="…"> applies to every robot; a robot's own
//     token as the name (<meta name="googlebot" …>) applies to that robot
//     only (Google's documentation). Names are compared ASCII
//     case-insensitively. Some published examples write value="…" instead
//     of content="…"; the value attribute is read when content is missing,
//     with a problem noted.
//   - X-Robots-Tag: a comma-separated list, optionally after a "robot:"
//     prefix that addresses the rest of the list to one robot
//     ("X-Robots-Tag: googlebot: noindex, nofollow"). Several headers add
//     up. The prefix is only a robot's when it is not itself a directive, so
//     "unavailable_after: 25 Jun 2010 15:00:00 PST" stays a directive.
//   - Robots-Tag, the header of draft-illyes-repext-00 §2.1.1: a
//     ";"-separated list of "token=rules" entries, "*=" or no token for
//     every robot. Its example "Robots-Tag: *=noindex, nosnippet;
//     ExampleBot=;" gives ExampleBot no rules, so within one Robots-Tag
//     header a robot that is named gets only its own entry (see [For]).
//
// Every read is bounded: header values to [MaxHeaderValue] bytes (the draft
// asks for at least 8 KiB), HTML to the byte limit given to [ReadHTML].
//
// # Combination
//
// For one robot, the restrictive directives of the generic and the
// robot-specific sources add up (Google's robots meta tag documentation;
// draft-illyes-repext-00 §2.1.2). A page with <meta name="robots"
// content="nofollow"> and <meta name="googlebot" content="noindex"> is
// noindex, nofollow for Googlebot and nofollow for any other robot. Of two limits the stricter wins:
// the smaller max-snippet and max-video-preview, the smaller
// max-image-preview, the earlier unavailable_after. "all", "index" and
// "follow" are the defaults and never lift a restriction.
package meta
