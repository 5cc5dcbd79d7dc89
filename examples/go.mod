module github.com/kapi-dev/kapi/examples

go 1.26.0

require github.com/kapi-dev/kapi v0.0.0

require (
	github.com/google/btree v1.1.3 // indirect
	go.yaml.in/yaml/v2 v2.4.4 // indirect
	k8s.io/api v0.37.2 // indirect
	k8s.io/apimachinery v0.37.2 // indirect
	k8s.io/client-go v0.37.2 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)

replace github.com/kapi-dev/kapi => ../
