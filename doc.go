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
// do. Checking a URL does not allocate unless its path must be rewritten to
// be compared and is longer than 256 bytes once rewritten: a URL without a
// path but with a query ("https://example.com?q" is compared as "/?q"), or
// a path that the profiles with "rfc" %-encoding normalise (see [Rules]).
//
// # Profiles
//
// A [Profile] is how one robot family reads the file. The zero value is
// [Google].
//
//	                       google   rfc9309  bing     yandex   draft1996  strict1994
//	agent match            token    token    token    token    value      value
//	                                                           contains   inside
//	                                                           name       name
//	several groups for it  merged   merged   merged   merged   first      first
//	blank line ends group  no       no       no       yes      yes        yes
//	precedence             longest  longest  longest  longest  first      first
//	                                                           match      match
//	"*" and "$"            yes      yes      yes      yes      octets     octets
//	Allow                  yes      yes      yes      yes      yes        ignored
//	misspelt keys,         yes      no       no       no       no         no
//	  missing colon
//	%-encoding             google   rfc      rfc      rfc      rfc        none
//	/robots.txt allowed    no       yes      yes      yes      yes        yes
//	…/index.html allows …/ yes      no       no       no       no         no
//	"*" Crawl-delay kept   no       no       yes      no       no         no
//	NUL in URL path        ends it  encoded  encoded  encoded  encoded    octet
//
// The rows, with their sources:
//
//   - agent match. "token": the product token of each User-agent value (its
//     leading run of [A-Za-z_-]) equals the robot's, ignoring ASCII case;
//     "*" and "* text" name every robot (RFC 9309 §2.2.1; google/robotstxt).
//     Yandex documents that YandexBot's group beats Yandex's, which beats
//     "*": a fallback chain of tokens ([Agent], package agents). A robot
//     whose name is not a product token, such as MJ12bot or
//     archive.org_bot, can ask to be named by its whole name instead
//     ([Agent.WholeName]), as those crawlers document. The old
//     standards take the first record that names the robot, else the first
//     "*" record, and the sources disagree on what naming is. "value
//     contains name": a User-agent value contains the robot's name token,
//     ignoring case (1996 draft §3.2.1, and Moderatobot's "other strategy").
//     "value inside name": the value up to a '/' is part of the robot's
//     name (1994 standard: "a case insensitive substring match of the name
//     without version information is recommended", as CPython's old
//     robotparser reads it; checks RB703 and RB705 of package lint).
//   - several groups. RFC 9309 §2.2.1 merges every group that names the
//     robot; the old standards obey one record (Moderatobot: "the robot
//     must take into account only the first group"). A record needs a rule line
//     to count (the grammar of both old texts).
//   - blank lines. RFC 9309 §2.2 and Google ignore them; the old standards
//     separate records by blank lines and Yandex forbids them inside a group
//     (Moderatobot; Yandex's robots.txt help; RB402–RB404): rules after one
//     are in no group and obeyed by no robot.
//   - precedence. "longest": the matching rule with the most octets wins,
//     Allow on ties (RFC 9309 §2.2.2; Mandelbot's "Precedence of
//     Directives";
//     Yandex sorts rules by prefix length, Allow winning ties). "first
//     match": the first matching rule in file order (1996 draft §3.2.2;
//     Moderatobot: "some robots are sensitive for the order of records").
//     Under strict1994 Allow lines are unknown lines, so any matching
//     Disallow decides, and an empty Disallow forbids nothing.
//   - wildcards: RFC 9309 §2.2.3; the old standards have none, so '*' and
//     '$' are compared as octets.
//   - misspelt keys (useragent, "user agent", disalow, dissallow, dissalow,
//     diasllow, disallaw, site-map, keys read by prefix) and "Disallow /x"
//     without a colon: google/robotstxt only.
//   - %-encoding. "google": rules escape non-ASCII octets and upper-case
//     hex, the URL is compared as given (google/robotstxt). "rfc": both
//     sides decode escaped unreserved characters and escape non-ASCII (RFC
//     9309 §2.2.2). "none": octets as written (1994).
//   - /robots.txt is always allowed (RFC 9309 §2.2.2, Moderatobot); Google's
//     matcher leaves that to its caller.
//   - an Allow of …/index.html also allows …/ (google/robotstxt).
//   - Bing keeps the "*" groups' Crawl-delay for a robot whose own groups
//     set none (Bing's webmaster guidance; RB707); see [Rules.Group].
//
// Every profile skips a UTF-8 byte order mark (or a prefix of one) at the
// start of the file, ends a line at LF, CR or CRLF, and reads a line only
// up to a NUL byte and its first 16,663 bytes.
//
// Under google the verdict and the deciding line equal those of Google's C++
// library for every case of the conformance sets in testdata/conformance.
//
// # Sources
//
// The texts cited above are public: RFC 9309
// (https://www.rfc-editor.org/rfc/rfc9309); the 1994 standard
// (https://www.robotstxt.org/orig.html) and the 1996 draft
// (https://www.robotstxt.org/norobots-rfc.txt); Google's "How Google
// interprets the robots.txt specification"
// (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt)
// and its C++ library google/robotstxt; Yandex's robots.txt help
// (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html);
// Sean Conner's "An Extended Standard for Robot Exclusion"; Moderatobot's
// "Checking robots.txt theory" (moderatobot.com); and Mandelbot's
// robots.txt documentation (Fractle).
package robots
