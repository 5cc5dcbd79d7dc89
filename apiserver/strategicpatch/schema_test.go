package strategicpatch

// fakeSchema is a hand-built Schema for tests: a tree of objects, maps and
// lists with Kubernetes' patch strategies and merge keys.
type fakeSchema struct {
	props    map[string]*fakeSchema
	values   *fakeSchema // a map's value schema
	items    *fakeSchema // a list's item schema
	strategy string
	key      string
}

func (f *fakeSchema) Property(name string) Schema {
	if f == nil {
		return nil
	}
	if p, ok := f.props[name]; ok {
		return p
	}
	if f.values != nil {
		return f.values
	}
	return nil
}

func (f *fakeSchema) ItemSchema() Schema {
	if f == nil || f.items == nil {
		return nil
	}
	return f.items
}

func (f *fakeSchema) PatchStrategy() string {
	if f == nil {
		return ""
	}
	return f.strategy
}

func (f *fakeSchema) PatchMergeKey() string {
	if f == nil {
		return ""
	}
	return f.key
}

type props = map[string]*fakeSchema

// scalar is a string, number or boolean field.
func scalar() *fakeSchema { return &fakeSchema{} }

// object is an object with declared fields.
func object(p props) *fakeSchema { return &fakeSchema{props: p} }

// mapOf is an object with arbitrary keys (additionalProperties).
func mapOf(values *fakeSchema) *fakeSchema { return &fakeSchema{values: values} }

// atomicList is a list without patch strategy: a patch replaces it.
func atomicList(items *fakeSchema) *fakeSchema { return &fakeSchema{items: items} }

// keyedList is a list of objects merged by key.
func keyedList(key string, items *fakeSchema) *fakeSchema {
	return &fakeSchema{items: items, strategy: "merge", key: key}
}

// setList is a list of primitives merged as a set.
func setList() *fakeSchema { return &fakeSchema{items: scalar(), strategy: "merge"} }

// withStrategy sets a field's patch strategy.
func withStrategy(s *fakeSchema, strategy string) *fakeSchema {
	s.strategy = strategy
	return s
}

// deploymentSchema describes a Deployment the way Kubernetes' OpenAPI does
// for strategic merge patch: containers merge by name, their ports by
// containerPort, env by name, volume mounts by mountPath; volumes merge by
// name with retainKeys; the deployment strategy has retainKeys; finalizers
// are a primitive list with strategy merge; tolerations and args have no
// strategy.
func deploymentSchema() *fakeSchema {
	objectMeta := func() *fakeSchema {
		return object(props{
			"name":        scalar(),
			"namespace":   scalar(),
			"labels":      mapOf(scalar()),
			"annotations": mapOf(scalar()),
			"finalizers":  setList(),
			"ownerReferences": keyedList("uid", object(props{
				"apiVersion": scalar(), "kind": scalar(), "name": scalar(), "uid": scalar(),
			})),
		})
	}
	container := func() *fakeSchema {
		return object(props{
			"name":            scalar(),
			"image":           scalar(),
			"imagePullPolicy": scalar(),
			"command":         atomicList(scalar()),
			"args":            atomicList(scalar()),
			"ports": keyedList("containerPort", object(props{
				"containerPort": scalar(), "name": scalar(), "protocol": scalar(), "hostPort": scalar(),
			})),
			"env": keyedList("name", object(props{
				"name": scalar(), "value": scalar(),
				"valueFrom": object(props{"fieldRef": object(props{"fieldPath": scalar()})}),
			})),
			"volumeMounts": keyedList("mountPath", object(props{
				"name": scalar(), "mountPath": scalar(), "readOnly": scalar(),
			})),
			"resources": object(props{"limits": mapOf(scalar()), "requests": mapOf(scalar())}),
		})
	}
	podSpec := object(props{
		"containers":     keyedList("name", container()),
		"initContainers": keyedList("name", container()),
		"volumes": withStrategy(keyedList("name", object(props{
			"name":      scalar(),
			"hostPath":  object(props{"path": scalar(), "type": scalar()}),
			"emptyDir":  object(props{"medium": scalar(), "sizeLimit": scalar()}),
			"configMap": object(props{"name": scalar(), "defaultMode": scalar()}),
		})), "merge,retainKeys"),
		"tolerations": atomicList(object(props{
			"key": scalar(), "operator": scalar(), "value": scalar(), "effect": scalar(),
		})),
		"imagePullSecrets": keyedList("name", object(props{"name": scalar()})),
		"nodeSelector":     mapOf(scalar()),
		"restartPolicy":    scalar(),
	})
	return object(props{
		"apiVersion": scalar(),
		"kind":       scalar(),
		"metadata":   objectMeta(),
		"spec": object(props{
			"replicas": scalar(),
			"selector": object(props{"matchLabels": mapOf(scalar())}),
			"strategy": withStrategy(object(props{
				"type":          scalar(),
				"rollingUpdate": object(props{"maxSurge": scalar(), "maxUnavailable": scalar()}),
			}), "retainKeys"),
			"template": object(props{"metadata": objectMeta(), "spec": podSpec}),
		}),
		"status": object(props{
			"replicas": scalar(),
			"conditions": keyedList("type", object(props{
				"type": scalar(), "status": scalar(), "reason": scalar(),
			})),
		}),
	})
}
