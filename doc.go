// Package robots answers "may this robot fetch this URL?" from a robots.txt
// file, as a given family of robots reads the file.
//
// A file is parsed once into immutable [Rules] and queried many times:
//
//	rules := robots.Parse(body, robots.Google)
//	if rules.Allowed("Googlebot", "https://example.com/private/x") { … }
//
// [Rules.Decide] explains a verdict (the deciding line, rule and group), and
// [Rules.Group] gives a robot's Crawl-delay, Request-rate, Visit-time and
// Robot-version; [Rules.Sitemaps], [Rules.Host] and [Rules.CleanParams] give
// the file-wide directives. The lossless syntax tree behind it all is in
// package syntax.
//
// Parsing never fails: a line a profile does not honour is ignored, as that
// robot ignores it. Parse and Compile interpret every byte they are given;
// read at most [MaxBytes] of a body from a file or the network, as robots
// do. Checking a URL does not allocate when its path is ASCII.
//
// # Profiles
//
// A [Profile] is how one robot family reads the file. The zero value is
// [Google].
//
//	                          google                        rfc9309
//	source                    google/robotstxt, seed 003    RFC 9309
//	agent match               product token [A-Za-z_-]+     same
//	                          of the line, ASCII case-
//	                          insensitive, exact; "*" and
//	                          "* text" are global
//	several groups for agent  merged                        merged (§2.2.1)
//	precedence                longest pattern in octets,    same (§2.2.2)
//	                          Allow wins ties
//	"*" and "$"               yes                           yes (§2.2.3)
//	misspelt keys, keys read  yes: useragent, "user agent", no
//	  by prefix               disalow, dissallow, dissalow,
//	                          diasllow, disallaw, site-map
//	missing colon             "Disallow /x" accepted        no (§2.2)
//	%-encoding                rules: non-ASCII → %XX,        both sides: decode
//	                          hex upper-cased; URL as       unreserved, encode
//	                          given                         non-ASCII (§2.2.2)
//	/robots.txt allowed       no (left to the caller)       yes (§2.2.2)
//	…/index.html allows …/    yes                           no
//	line cut                  16,663 bytes                  same
//	NUL in URL path           ends the path                 encoded
//
// Both profiles skip a UTF-8 byte order mark (or a prefix of one) at the
// start of the file, end a line at LF, CR or CRLF, and read a line only up
// to a NUL byte.
//
// Under google the verdict and the deciding line equal those of Google's C++
// library for every case of the shared conformance sets.
package robots
