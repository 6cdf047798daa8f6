// Package lines is the module's one reading of robots.txt lines: where a
// body starts (a byte order mark skipped), where each line ends (LF, CR or
// CRLF), and what a line holds (its kind, key, value, comment and
// irregularities). Package syntax builds its lossless tree from it, and the
// root package's compiler reads with it every line that its own short way
// does not take, so that both read every line alike.
//
// A [Line] holds offsets into the text it was read from; package syntax
// turns them into positions (line and column). Its [Kind], [Field] and
// [Flags] are the module's one enumeration of each: package syntax
// exports them as syntax.LineKind, syntax.Field and syntax.Flags (type
// aliases, with the constants documented there).
package lines

// MaxLen is the number of bytes of a line that is read; the rest of a
// longer line is ignored, as Google's parser ignores it (its line buffer
// holds 2083·8 bytes including the terminating NUL).
const MaxLen = 2083*8 - 1

// Kind classifies a line (syntax.LineKind).
type Kind uint8

var kindNames = [...]string{"", "blank", "comment", "directive", "invalid"}

// String returns "blank", "comment", "directive" or "invalid".
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "LineKind(?)"
}

const (
	_ Kind = iota
	// BlankLine holds nothing but white space.
	BlankLine
	// CommentLine holds only a comment (and white space).
	CommentLine
	// DirectiveLine holds a key and a value, and maybe a comment.
	DirectiveLine
	// InvalidLine holds text that is neither a directive nor a comment.
	InvalidLine
)

// Field is the directive a key names (syntax.Field documents each).
type Field uint8

const (
	// Unknown is a key that names no directive.
	Unknown Field = iota
	UserAgent
	Allow
	Disallow
	Sitemap
	CrawlDelay
	RequestRate
	VisitTime
	Host
	CleanParam
	RobotVersion
	Comment
	ContentUsage
	ContentSignal
	License
	// NumFields counts the fields, Unknown included.
	NumFields
)

// fieldNames holds the canonical spelling of every field.
var fieldNames = [NumFields]string{
	"", "User-agent", "Allow", "Disallow", "Sitemap", "Crawl-delay",
	"Request-rate", "Visit-time", "Host", "Clean-param", "Robot-version",
	"Comment", "Content-Usage", "Content-Signal", "License",
}

// String returns the canonical spelling of f ("User-agent", "Disallow", …),
// or "" for Unknown and for a number that names no field.
func (f Field) String() string {
	if f < NumFields {
		return fieldNames[f]
	}
	return ""
}

// Flags records irregularities of a line (syntax.Flags documents each).
type Flags uint16

const (
	Lenient Flags = 1 << iota
	MissingColon
	TooLong
	NUL
	InvalidUTF8
	NoSeparator
	EmptyKey
)

// Range is a half-open range [Start, End) of offsets in the text a line
// was read from.
type Range struct {
	Start, End int
}

// Line is one line as this package reads it.
type Line struct {
	Kind  Kind
	Field Field // for a DirectiveLine; Unknown otherwise
	Flags Flags
	// EOL is the length of the line terminator: 0 (end of input), 1 (LF or
	// CR) or 2 (CRLF).
	EOL int
	// Span covers the line's text, without its terminator.
	Span Range
	// Key and Value are a DirectiveLine's key and value, white space
	// trimmed; Value may be empty. Both are the zero Range unless Kind is
	// DirectiveLine.
	Key, Value Range
	// Comment covers the comment from '#' to the end of the line's read
	// part; it is the zero Range when the line has none (a comment is
	// never empty: it holds its '#').
	Comment Range
}

// HasComment reports whether l holds a comment.
func (l *Line) HasComment() bool { return l.Comment.End > l.Comment.Start }
