module github.com/robotskit/robots

go 1.26
