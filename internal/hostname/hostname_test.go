package hostname

import "testing"

// TestValid: the Host values Yandex's robots.txt help listed as ignored,
// and the forms it accepted (a bare host, a port, an https:// mirror).
func TestValid(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want bool
	}{
		{"myhost.com", true},
		{"www.myhost.com", true},
		{"www.myhost.com:8080", true},
		{"https://www.myhost.com", true},
		{"HTTPS://www.myhost.com:443", true},
		{"http://myhost.com", true}, // RB622 asks for the bare name; the host is valid
		{"www.myhost-.com", false},
		{"www.-myhost.com", false},
		{"www.myhost.com:0", false},
		{"www.myhost.com:65536", false},
		{"www.myhost.com:+80", false},
		{"www.my_host.com", false},
		{".my-host.com:8000", false},
		{"my..host.com", false},
		{"www.myhost.com:8080/", false},
		{"213.180.194.129", false},
		{"[2001:db8::1]", false},
		{"FE80::0202:B3FF:FE1E:8329", false},
		{"https://[2001:db8:0:1]:80", false},
		{"www.firsthost.ru,www.secondhost.com", false},
		{"www.firsthost.ru www.secondhost.com", false},
		{"пример.рф", false},
		{"", false},
		{"https://", false},
	} {
		if got := Valid(tt.v); got != tt.want {
			t.Errorf("Valid(%q) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
