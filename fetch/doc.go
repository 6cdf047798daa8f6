// Package fetch gets robots.txt files the way real robots do: the status
// codes, redirects, size limit, timeouts and cache lifetimes of one robot
// family, a cache shared by many goroutines (in memory; on disk with
// bbolt, or in Redis for a crawler fleet, in the packages fetch/diskcache
// and fetch/rediscache), and an http.RoundTripper that makes any Go HTTP
// client obey robots.txt and pace itself.
//
//	f := &fetch.Fetcher{UserAgent: "ExampleBot/1.0 (+https://example.com/bot)"}
//	res, err := f.Get(ctx, "https://example.com/some/page")
//	if err == nil && res.Allowed("ExampleBot", "https://example.com/some/page") { … }
//
// Fetcher.Get answers from the cache while the copy is fresh and makes one
// request per origin however many goroutines ask (golang.org/x/sync's
// singleflight). Fetcher.Fetch always asks the server and returns the
// trace of every hop, for the checker and `robots fetch`.
//
// # Origins
//
// A robots.txt governs one origin: scheme, host and port (RFC 9309 §2.3;
// the table of valid and invalid URLs of Google's robots.txt
// documentation). Hosts are compared in lower case and in their IDNA ASCII
// form; :80 and :443 are the default ports of http and https and are
// dropped; an IP address is its own host.
//
// # Policies
//
// A Policy is how one robot family reads the outcome of the request. Every
// policy reads at most 500 KiB of the body (Google; RFC 9309 §2.5),
// decoding gzip and deflate with the same bound on the decoded size, and
// gives up after Fetcher.Timeout (10 s, as Moderatobot does).
//
//	                 google    rfc9309   bing      yandex    draft1996  mandelbot
//	redirects        5, then   5, then   5, then   5, then   5, then    5, then
//	                 no file   no file   no file   no file   no file    no file
//	2xx but not 200  rules     rules     rules     no file   rules      rules
//	401, 403         no file   no file   no file   no file   forbidden  no file
//	other 4xx        no file   no file   no file   no file   no file    no file
//	429              outage    no file   no file   no file   no file    no file
//	5xx, network     outage    outage    outage    no file   outage     outage
//	5xx "not found"  no file   outage    outage    no file   outage     no file
//	over 500 KiB     cut       cut       cut       no file   cut        cut
//	fresh for        24 h      24 h      24 h      24 h      7 days     48 h
//	max-age up to    24 h      24 h      24 h      24 h      7 days     48 h
//	outage: disallow 12 h      30 days   30 days   -         30 days    30 days
//	then             good copy good copy good copy -         good copy  good copy
//	after 30 days    no rules  good copy good copy -         good copy  good copy
//
// "no file" is Outcome Unavailable (crawl everything), "forbidden" is
// Forbidden (crawl nothing), "outage" is Unreachable: complete disallow at
// first, then the last good copy (no restrictions if there is none). The
// rows, with their sources:
//
//   - redirects: Google follows five and then treats the file as a 404;
//     RFC 9309 §2.3.1.2 asks for at least five and allows "unavailable"
//     beyond; Moderatobot describes robots that stop at five or at a loop.
//     A loop ends as "no file" too. The rules of the target govern the
//     initial origin (RFC 9309 §2.3.1.2).
//   - only 200: Yandex reads a robots.txt only from a 200 response
//     (Yandex's robots.txt help; RB110; Moderatobot: "some robots will only
//     process the responses with HTTP code 200").
//   - 401 and 403: "no file" for Google, RFC 9309 §2.3.1.3 and Mandelbot
//     ("even for 401 Unauthorized and 403 Forbidden"); the whole site is
//     forbidden under the 1996 draft and the 1994 standard (Moderatobot).
//   - 429: Google counts it with the 5xx errors; RFC 9309 and the others
//     read it as a 4xx.
//   - 5xx and network errors (DNS, refused or broken connections, timeouts,
//     invalid responses): RFC 9309 §2.3.1.4 "MUST assume complete
//     disallow"; Google likewise; Mandelbot retries later; Yandex crawls
//     as if there were no file (Yandex's robots.txt help).
//   - 5xx "not found": a server that answers 5xx with a page saying the
//     file is not found is read as 404 by Google and Mandelbot.
//   - over 500 KiB: the rest is ignored (Google), and the line the limit
//     cuts with it; Yandex ignores such a file whole (Yandex's robots.txt
//     help; RB122).
//   - freshness: 24 hours, or Cache-Control max-age (minus Age) or Expires,
//     between 1 minute and the policy's maximum (Google; RFC 9309 §2.4);
//     Mandelbot caches 48 hours, the 1996 draft 7 days.
//   - outage: Google stops for 12 hours, then uses the last good copy for up
//     to 30 days, then crawls without restrictions (Google's Search Console
//     documentation; Google's robots.txt documentation states the 30 days
//     and that with no copy it assumes no crawl restrictions). RFC 9309
//     §2.3.1.4: complete disallow, and after "a reasonably long period of
//     time (for example, 30 days)" a cached copy or no restrictions; we
//     keep the copy when there is one. An unreachable file is fetched again after a
//     minute at first, up to an hour as the outage lasts, or when the
//     server's Retry-After says.
//
// # Caches
//
// A Cache keeps an Entry per policy and origin: the last fetch's outcome
// and the last good copy, which must outlive the freshness time. A failing
// cache costs a fetch, never a disallow.
//
// This package has the MemoryCache, bounded by bytes, and Layered, which
// puts a fast cache in front of a slower one.
//
// Many origins serve the same file. The entries of the same body share one
// copy of it, and the rules compiled from it for each profile, whichever
// cache holds them: a body is found by a hash of its bytes and then by the
// bytes themselves, so that two files are never mixed, and it is held only
// while an entry or a result uses it. The Result of a cache hit is kept
// for the next hit only while a caller holds it. So a MemoryCache holds a
// million origins of real robots.txt files in well under a GiB. The caches outside the
// process are packages of their own, so that a program that imports
// fetch links neither bbolt nor go-redis:
//
//   - fetch/diskcache: a cache in a bbolt file, which survives a restart,
//     loses only cache when its file is truncated or corrupt, and stays
//     under a bound;
//   - fetch/rediscache: a cache in Redis, which a crawler fleet shares,
//     with a circuit breaker that keeps an outage of Redis cheap;
//   - fetch/cachespec: opens any of them, behind a MemoryCache, from a
//     string such as a command-line flag: "memory", "disk:PATH?max=SIZE"
//     or "redis://…".
//
// The disk and Redis caches store an Entry as its MarshalBinary encoding,
// and keep it DefaultRetain after its fetch.
//
// # Sources
//
// "Google" above is Google's "How Google interprets the robots.txt
// specification"
// (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt);
// RFC 9309 is https://www.rfc-editor.org/rfc/rfc9309; the 1996 draft is
// https://www.robotstxt.org/norobots-rfc.txt and the 1994 standard
// https://www.robotstxt.org/orig.html; Yandex's robots.txt help is
// https://yandex.com/support/webmaster/controlling-robot/robots-txt.html;
// Moderatobot is its "Checking robots.txt theory" (moderatobot.com); and
// Mandelbot is Mandelbot's robots.txt documentation (Fractle).
package fetch
