package lines

// ProductToken returns the leading run of [A-Za-z_-] of v: the product
// token of a User-agent value as RFC 9309 §2.2.1 defines it and as
// Google's parser compares it ("Googlebot/2.1" → "Googlebot"). The root
// package, the registry and the checker all read tokens through it.
func ProductToken(v string) string {
	i := 0
	for i < len(v) && IsTokenChar(v[i]) {
		i++
	}
	return v[:i]
}

// IsTokenChar reports whether c may appear in a product token (RFC 9309
// §2.2.1: letters, '_' and '-').
func IsTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}
