module github.com/kapi-dev/kapi/hack

go 1.24
