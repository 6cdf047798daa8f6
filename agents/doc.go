// Package agents is the registry of known robots: who operates each
// robots.txt product token, what the robot fetches pages for, whether its
// operator says it honours robots.txt, and how it reads the file.
//
// The data is embedded in the binary (robots.json) and read once, on first
// use. Every value the package returns is a copy, so callers may modify it;
// all functions are safe for concurrent use.
//
//	r, ok := agents.Lookup("googlebot-image")
//	// r.Token == "Googlebot-Image", r.Tokens() == [Googlebot-Image Googlebot]
//
// # Profiles and fetch behaviour
//
// [Robot.Profile] names how the robot reads robots.txt and [Robot.Fetch]
// how it treats the HTTP status of the robots.txt response. Profile names
// are those of the root package's profiles: "google", "rfc9309", "bing",
// "yandex", "draft1996" and "strict1994". Fetch adds "mandelbot" (Mandelbot's
// robots.txt documentation, Fractle)
// and has no "strict1994". Robots whose operator documents no parser of its
// own get "rfc9309" for both.
//
// # Group selection
//
// A robot obeys the first group that names [Robot.Token]; failing that, the
// first that names a token of [Robot.Fallback], in order; failing that, the
// "*" group, unless [Robot.IgnoresGlobal] is set. [Robot.Tokens] gives the
// chain, most specific first: Googlebot-Image falls back to Googlebot,
// every Yandex robot to the umbrella token Yandex, and Applebot to
// Googlebot.
//
// # Tokens that are not RFC 9309 product tokens
//
// RFC 9309 §2.2.1 allows only letters, "_" and "-" in a product token, and
// Google's parser compares only the leading run of those characters. A few
// operators document tokens outside that set (MJ12bot, 360Spider, AI2Bot,
// img2dataset, archive.org_bot). The registry keeps their documented
// spelling; the entry's Notes say which token an RFC 9309 or Google parser
// actually compares. [Robot.WholeName] reports such a robot, and its
// [Robot.Reads] is "whole name" ("product token" for the others): its
// operator documents User-agent lines with the whole name
// (https://mj12bot.com/, https://archive.org/details/archive.org_bot), so
// the command and packages page and fetch read it with the root package's
// Agent.WholeName, which matches a User-agent value up to its first '/'
// or white space against the whole token.
//
// # Usage control tokens
//
// Most tokens name a robot that fetches pages, and a Disallow in its group
// stops the fetch. A usage control token names none: its group says what
// the operator may do with what its other robots fetch. [Robot.Controls]
// marks such a token, with the robots whose fetches it governs and the
// usage purposes a Disallow for it withholds, in the vocabulary of
// usage preferences ("search", "ai-input", "ai-train"):
//
//   - Google-Extended governs Googlebot, Googlebot-Image, Googlebot-News
//     and Googlebot-Video, and withholds "ai-train" and "ai-input":
//     training Gemini models and grounding in Gemini Apps and Vertex AI,
//     not the AI Overviews of Google Search
//     (https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers#google-extended).
//     Google says only that crawling is done "with existing Google user
//     agent strings"; the registry records the Googlebot crawlers, whose
//     crawl builds the Search index that grounding draws on.
//   - Applebot-Extended governs Applebot and withholds "ai-train":
//     training Apple's foundation models
//     (https://support.apple.com/en-us/119829).
//
// [ControlsFor] returns the controls that govern a robot. [Robot.TokenOnly]
// is a different thing: a token with no crawler of its own, which both
// controls are, but so is the umbrella token Yandex, which governs no use.
// [Purpose.Usage] maps the registry's purposes to the usage purposes.
//
// # User-Agent headers
//
// [HeaderToken] derives a product token from a full User-Agent header and
// [FromUserAgent] identifies the robot that sent it. A header is only a
// claim: anyone can send Googlebot's string, and operators publish IP
// ranges or reverse-DNS names to verify it, which this package does not do.
//
// # Sources
//
// Each entry's Source field names its public evidence: the operator's
// documentation (also in Doc), Google's crawler list
// (https://developers.google.com/crawling/docs/crawlers-fetchers/overview-google-crawlers),
// the ai.robots.txt project (https://github.com/ai-robots-txt/ai.robots.txt),
// RFC 9309 §2.2.1 for tokens that are not product tokens, Mandelbot's
// robots.txt documentation (Fractle), or third-party reports. Obeys records the operator's claim, not a measurement.
package agents
