module github.com/kapi-dev/kapi/hack/difftest

go 1.24
