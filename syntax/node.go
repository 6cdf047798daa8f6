package syntax

import "github.com/robotskit/robots/internal/lines"

// File is a parsed robots.txt file. It keeps every byte of its input:
// [File.Bytes] returns the input unchanged.
type File struct {
	// Name is the file name used in positions of diagnostics; it may be "".
	Name string
	// BOM holds the leading bytes that were skipped as a UTF-8 byte order mark
	// (EF BB BF) or a prefix of one, as Google's parser skips them; "" when the
	// input does not start with one.
	BOM string
	// Lines holds one node per line, in order. The empty text after a final
	// line terminator is not a line.
	Lines []Line

	src string
}

// Text returns the input text covered by s.
func (f *File) Text(s Span) string {
	if !s.IsValid() {
		return ""
	}
	return f.src[s.Start.Offset:s.End.Offset]
}

// LineKind classifies a line.
type LineKind uint8

const (
	_ LineKind = iota
	// BlankLine holds nothing but white space.
	BlankLine
	// CommentLine holds only a comment (and white space).
	CommentLine
	// DirectiveLine holds a key and a value, and maybe a comment.
	DirectiveLine
	// InvalidLine holds text that is neither a directive nor a comment:
	// no separator between key and value, or an empty key.
	InvalidLine
)

var kindNames = [...]string{"", "blank", "comment", "directive", "invalid"}

func (k LineKind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "LineKind(?)"
}

// Field is the directive a key names. The zero value, [Unknown], is a key
// the parser does not recognise; its text is still in the tree.
type Field uint8

const (
	// Unknown is a key that names no directive this package knows.
	Unknown Field = iota
	// UserAgent starts or extends a group (RFC 9309 §2.2.1).
	UserAgent
	// Allow is a rule (RFC 9309 §2.2.2).
	Allow
	// Disallow is a rule (RFC 9309 §2.2.2).
	Disallow
	// Sitemap names a sitemap URL; it belongs to no group (RFC 9309 §2.2.4).
	Sitemap
	// CrawlDelay asks for a pause between requests, in seconds (Bing's and
	// Yandex's documentation).
	CrawlDelay
	// RequestRate limits requests per time span, e.g. 1/30 (Sean Conner's
	// "An Extended Standard for Robot Exclusion").
	RequestRate
	// VisitTime limits crawling to a daily UTC window, e.g. 2300-0430
	// (the extended standard).
	VisitTime
	// Host names the preferred mirror; Yandex only (Yandex's robots.txt
	// help).
	Host
	// CleanParam names URL parameters that do not change content; Yandex
	// only (Yandex's robots.txt help).
	CleanParam
	// RobotVersion says which version of the exclusion standard a group
	// follows, 1.0 or 2.0 (the extended standard).
	RobotVersion
	// Comment is the extended standard's Comment directive, not a
	// '#' comment.
	Comment
	numFields
)

// String returns the canonical spelling of f ("User-agent", "Disallow", …),
// or "" for Unknown.
func (f Field) String() string { return lines.Field(f).String() }

// Flags records irregularities of a line that some robots forgive and
// others do not. Profiles decide; the tree only records.
type Flags uint16

const (
	// Lenient marks a key that names its field only under Google's lenient
	// reading: a misspelling Google accepts ("disalow", "useragent",
	// "user agent", "site-map") or a known key with extra trailing text
	// ("user-agents", "disallowed"), which Google reads by prefix.
	Lenient Flags = 1 << iota
	// MissingColon marks a directive whose key and value are separated by
	// white space instead of ':' ("Disallow /x"), which Google accepts when
	// the line holds exactly two words.
	MissingColon
	// TooLong marks a line longer than [MaxLineLen]; the bytes past the limit
	// were not read for the key, value or comment.
	TooLong
	// NUL marks a line with a NUL byte; the line is read only up to it.
	NUL
	// InvalidUTF8 marks a line that is not valid UTF-8.
	InvalidUTF8
	// NoSeparator marks an invalid line with no ':' and not exactly two
	// white-space separated words.
	NoSeparator
	// EmptyKey marks an invalid line whose ':' has nothing before it.
	EmptyKey
)

// MaxLineLen is the number of bytes of a line that is read; the rest of a
// longer line is kept in the tree but ignored, as Google's parser ignores it
// (its line buffer holds 2083·8 bytes including the terminating NUL).
const MaxLineLen = 2083*8 - 1

// Line is one line of a robots.txt file.
type Line struct {
	Kind  LineKind
	Field Field // for a DirectiveLine; Unknown otherwise
	Flags Flags
	// EOL is the length of the line terminator: 0 (end of input), 1 (LF or
	// CR) or 2 (CRLF).
	EOL int
	// Span covers the line's text, without its terminator.
	Span Span
	// Key and Value are the directive's key and value, white space trimmed;
	// Value may be empty. Both are absent unless Kind is DirectiveLine.
	Key, Value Span
	// Comment covers the comment from '#' to the end of the line's read
	// part; it is absent when the line has none.
	Comment Span
}

// String returns the file's text as it was parsed.
func (f *File) String() string { return f.src }
