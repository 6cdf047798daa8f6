package agents

import "testing"

// BenchmarkControlsFor: the controls of a robot are worked out once per
// registry, so a lookup costs the copies it returns (usage.Decide asks
// once per verdict, robots scan once per robot and distinct body).
func BenchmarkControlsFor(b *testing.B) {
	for b.Loop() {
		ControlsFor("Googlebot")
		ControlsFor("GPTBot")
		ControlsFor("bingbot")
	}
}
