// Package syntax is the lossless tree of a robots.txt file: what each line
// holds and where, and what is irregular about it, with nothing decided yet
// about what a robot makes of it. Package robots compiles the tree into the
// rules of a robot family ([github.com/robotskit/robots.Compile]); package
// lint checks it.
//
// # The tree
//
// [Parse] reads a body into a [File]: one [Line] per line, in order, and
// the byte order mark (or prefix of one) it skipped before the first line,
// in [File.BOM]. A line ends at LF, CR or CRLF, the line ends of RFC 9309
// §2.2's grammar; the empty text after a final line end is not a line. The
// tree is made of lines, not groups: which lines make a group (RFC 9309
// §2.1, §2.2.1) is a robot's reading, and robots differ on it.
//
// Each line has a [LineKind]:
//
//   - [BlankLine]: nothing but white space.
//   - [CommentLine]: a comment, from '#' to the end of the line (the comment
//     of RFC 9309 §2.2), and white space.
//   - [DirectiveLine]: a key, a ':' and a value, and maybe a comment, as in
//     "Disallow: /private # staff only". Its [Field] is the directive the
//     key names, compared ignoring ASCII case as the strings of RFC 9309
//     §2.2's grammar are: User-agent, Allow and Disallow (§2.2.1, §2.2.2),
//     Sitemap and the other records robots read (§2.2.4), or [Unknown],
//     whose key and value are in the tree all the same. Key and Value are
//     trimmed of white space; Value may be empty.
//   - [InvalidLine]: any other text, such as a line with no ':'.
//
// Parse never fails, whatever the input, and [Flags] record what some
// robots forgive and others do not — Google's misspelt keys and its
// missing colon ("Disallow /x"), a NUL byte, a line longer than
// [MaxLineLen], invalid UTF-8 (RFC 9309 §2.3 asks for UTF-8). Whether a
// flagged line counts is the robot family's decision, in package robots.
//
// # Positions
//
// A line's [Span] covers its text without its line end, whose length is
// [Line.EOL]; Key, Value and Comment are spans within it, absent
// ([Span.IsValid] is false) when the line has none. A [Pos] counts bytes,
// not code points: Offset counts the bytes before it from the start of the
// input, byte order mark included, from 0; Line counts lines from 1; Col
// counts bytes from the start of the line, from 1, so an "é" takes two
// columns and line 1 starts at column 1 after a byte order mark. A Pos
// prints as "line:col". [File.Text] returns the text of a span.
//
// # Parsing and printing
//
// The tree keeps every byte of its input, and prints it back unchanged:
//
//	f := syntax.Parse("robots.txt", body)
//	for _, l := range f.Lines {
//		if l.Kind == syntax.DirectiveLine && l.Field == syntax.Disallow {
//			fmt.Println(l.Span.Start, f.Text(l.Value)) // e.g. 3:1 /private
//		}
//	}
//	f.WriteTo(os.Stdout) // body, byte for byte, as f.Bytes() returns it
//
// so that a tool can change a file by the spans of the lines it edits and
// leave every other byte as it was. The example of [Parse] prints the kind,
// field, value and flags of each line of a file.
package syntax
