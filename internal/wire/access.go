package wire

import "github.com/robotskit/robots"

// Access is what a file does to one robot, as every command's JSON and
// the API give it: {"robot", "state", "via", "line", "group"}, the words
// of robots.Access (scan rows carry the same keys).
type Access struct {
	// Robot is the robot's name: its registry token, or the product
	// token given.
	Robot string `json:"robot"`
	robots.Access
}
