module github.com/robotskit/robots/bench

go 1.26.0

replace github.com/robotskit/robots => ../

require (
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/robotskit/robots v0.0.0-00010101000000-000000000000
	github.com/temoto/robotstxt v1.1.2
)
