module github.com/kapi-dev/kapi/hack/perfcompare

go 1.24
