package fieldmanager

import (
	"maps"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	schema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/kapi-dev/kapi/meta"
	kapischema "github.com/kapi-dev/kapi/schema"
)

// A Deployment-like schema in the shape of kube's built-in OpenAPI:
// components referenced through allOf, containers and env associative by
// their patch merge key only (no x-kubernetes-list-type, the fallback
// schemaconv applies to built-ins), ports a list-type map keyed by
// containerPort and protocol, an atomic selector, an int-or-string and a
// quantity.
const deploymentLike = `
components:
  Deployment:
    type: object
    properties:
      apiVersion: {type: string}
      kind: {type: string}
      metadata: {allOf: [{$ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}], default: {}}
      spec: {allOf: [{$ref: "#/components/schemas/DeploymentSpec"}], default: {}}
  DeploymentSpec:
    type: object
    properties:
      replicas: {type: integer, format: int32}
      selector: {allOf: [{$ref: "#/components/schemas/LabelSelector"}]}
      maxSurge: {type: string, format: int-or-string}
      template:
        type: object
        properties:
          spec:
            type: object
            properties:
              containers:
                type: array
                items: {allOf: [{$ref: "#/components/schemas/Container"}], default: {}}
                x-kubernetes-patch-merge-key: name
                x-kubernetes-patch-strategy: merge
              volumes:
                type: array
                items: {type: object, properties: {name: {type: string}}}
                x-kubernetes-patch-merge-key: name
                x-kubernetes-patch-strategy: merge,retainKeys
              finalizers:
                type: array
                items: {type: string}
                x-kubernetes-patch-strategy: merge
              args:
                type: array
                items: {type: string}
  LabelSelector:
    type: object
    properties:
      matchLabels: {type: object, additionalProperties: {type: string}}
    x-kubernetes-map-type: atomic
  Container:
    type: object
    required: [name]
    properties:
      name: {type: string, default: ""}
      image: {type: string}
      resources:
        type: object
        properties:
          limits: {type: object, additionalProperties: {$ref: "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"}}
      ports:
        type: array
        items: {allOf: [{$ref: "#/components/schemas/ContainerPort"}], default: {}}
        x-kubernetes-list-map-keys: [containerPort, protocol]
        x-kubernetes-list-type: map
        x-kubernetes-patch-merge-key: containerPort
        x-kubernetes-patch-strategy: merge
      env:
        type: array
        items: {allOf: [{$ref: "#/components/schemas/EnvVar"}], default: {}}
        x-kubernetes-patch-merge-key: name
        x-kubernetes-patch-strategy: merge
  ContainerPort:
    type: object
    required: [containerPort]
    properties:
      containerPort: {type: integer, format: int32, default: 0}
      protocol: {type: string, default: TCP}
      name: {type: string}
  EnvVar:
    type: object
    required: [name]
    properties:
      name: {type: string, default: ""}
      value: {type: string}
  io.k8s.apimachinery.pkg.api.resource.Quantity:
    oneOf: [{type: string}, {type: number}]
`

func TestSchemaConversionOfADeploymentLikeOpenAPI(t *testing.T) {
	raw := obj(t, deploymentLike)["components"].(map[string]any)
	maps.Copy(raw, objectMetaComponents(t))
	comps, err := kapischema.ParseComponents(raw)
	require.NoError(t, err)
	s, err := convertSchema(comps["Deployment"])
	require.NoError(t, err)

	list := func(path ...string) *schema.List {
		t.Helper()
		a := resolve(t, s, path...)
		require.NotNil(t, a.List, "%v is a list", path)
		return a.List
	}
	assert.Equal(t, &schema.List{ElementType: named("Container"), ElementRelationship: schema.Associative, Keys: []string{"name"}},
		list("spec", "template", "spec", "containers"), "containers: associative by the patch merge key")
	assert.Equal(t, schema.Associative, list("spec", "template", "spec", "volumes").ElementRelationship, "merge,retainKeys is associative")
	assert.Equal(t, schema.Associative, list("spec", "template", "spec", "finalizers").ElementRelationship, "merge without a key is a set")
	assert.Nil(t, list("spec", "template", "spec", "finalizers").Keys)
	assert.Equal(t, schema.Atomic, list("spec", "template", "spec", "args").ElementRelationship, "lists are atomic by default")
	ports := list("spec", "template", "spec", "containers", "[]", "ports")
	assert.Equal(t, []string{"containerPort", "protocol"}, ports.Keys, "x-kubernetes-list-type wins over the patch strategy")
	assert.Equal(t, schema.Associative, ports.ElementRelationship)
	assert.Equal(t, []string{"name"}, list("spec", "template", "spec", "containers", "[]", "env").Keys)
	assert.Equal(t, schema.Atomic, resolve(t, s, "spec", "selector").Map.ElementRelationship, "x-kubernetes-map-type: atomic")
	assert.Equal(t, schema.Untyped, *resolve(t, s, "spec", "maxSurge").Scalar, "int-or-string is untyped")
	assert.Equal(t, schema.Untyped, *resolve(t, s, "spec", "template", "spec", "containers", "[]", "resources", "limits", "*").Scalar,
		"a quantity is an untyped scalar")
	assert.Nil(t, resolve(t, s, "spec", "template", "spec", "containers", "[]", "resources", "limits", "*").Map)

	// What SMD makes of an object with it.
	pt := typed.ParseableType{Schema: s, TypeRef: schema.TypeRef{NamedType: strPtr(rootName)}}
	tv, err := pt.FromUnstructured(map[string]any(obj(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, labels: {a: b}, ownerReferences: [{apiVersion: v1, kind: X, name: o, uid: u1}], finalizers: [f]}
spec:
  replicas: 2
  maxSurge: 25%
  selector: {matchLabels: {app: x}}
  template:
    spec:
      finalizers: [x]
      args: [a, b]
      containers:
      - name: app
        image: app:1
        resources: {limits: {cpu: 500m, memory: 1}}
        ports: [{containerPort: 80}, {containerPort: 80, protocol: UDP}]
        env: [{name: A, value: "1"}]`)))
	require.NoError(t, err)
	set, err := tv.ToFieldSet()
	require.NoError(t, err)
	fields, err := setToFields(set)
	require.NoError(t, err)
	assert.JSONEq(t, `{
	  "f:apiVersion": {}, "f:kind": {},
	  "f:metadata": {"f:name": {}, "f:labels": {"f:a": {}}, "f:finalizers": {"v:\"f\"": {}},
	                 "f:ownerReferences": {"k:{\"uid\":\"u1\"}": {}}},
	  "f:spec": {
	    "f:replicas": {}, "f:maxSurge": {}, "f:selector": {},
	    "f:template": {"f:spec": {
	      "f:finalizers": {"v:\"x\"": {}},
	      "f:args": {},
	      "f:containers": {"k:{\"name\":\"app\"}": {
	        ".": {}, "f:name": {}, "f:image": {},
	        "f:resources": {"f:limits": {"f:cpu": {}, "f:memory": {}}},
	        "f:ports": {
	          "k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}},
	          "k:{\"containerPort\":80,\"protocol\":\"UDP\"}": {".": {}, "f:containerPort": {}, "f:protocol": {}}},
	        "f:env": {"k:{\"name\":\"A\"}": {".": {}, "f:name": {}, "f:value": {}}}}}}}}}`,
		jsonOf(t, fields))

	// Unknown fields are refused where properties are given.
	_, err = pt.FromUnstructured(map[string]any(obj(t, `{apiVersion: apps/v1, kind: Deployment, spec: {bogus: 1}}`)))
	assert.ErrorContains(t, err, ".spec.bogus: field not declared in schema")
}

func TestSchemaConversionOfCRDMarkers(t *testing.T) {
	s, err := convertSchema(nonStructural(t, `
type: object
properties:
  metadata: {type: object, properties: {name: {type: string, maxLength: 3}}}
  spec:
    type: object
    properties:
      set: {type: array, items: {type: string}, x-kubernetes-list-type: set}
      atomic: {type: array, items: {type: string}, x-kubernetes-list-type: atomic}
      granular: {type: object, additionalProperties: {type: string}, x-kubernetes-map-type: granular}
      open:
        type: object
        x-kubernetes-preserve-unknown-fields: true
        properties:
          inner: {type: object, properties: {a: {type: string}}}
      closed: {type: object, additionalProperties: false}
      free: {type: object}
      nullable: {type: string, nullable: true}
      target: {x-kubernetes-int-or-string: true}
      anything: {}
      nested: {type: array, items: {type: array, items: {type: integer}}}
      embedded:
        type: object
        x-kubernetes-embedded-resource: true
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
`))
	require.NoError(t, err)

	assert.Equal(t, named(kapischema.ObjectMetaComponent), field(t, s, "metadata"), "a CRD's metadata is ObjectMeta")
	assert.Equal(t, schema.String, *resolve(t, s, "apiVersion").Scalar)
	assert.Equal(t, schema.Associative, resolve(t, s, "spec", "set").List.ElementRelationship)
	assert.Equal(t, schema.Atomic, resolve(t, s, "spec", "atomic").List.ElementRelationship)
	assert.Equal(t, schema.Separable, resolve(t, s, "spec", "granular").Map.ElementRelationship)
	assert.Equal(t, named(deducedName), resolve(t, s, "spec", "open").Map.ElementType, "preserve-unknown-fields keeps unknown fields")
	assert.Equal(t, named(deducedName), resolve(t, s, "spec", "open", "inner").Map.ElementType,
		"and so do the objects below it (as in schemaconv)")
	assert.Equal(t, schema.TypeRef{}, resolve(t, s, "spec", "closed").Map.ElementType, "additionalProperties: false")
	assert.Equal(t, named(deducedName), resolve(t, s, "spec", "free").Map.ElementType, "an object without properties is free-form")
	assert.True(t, field(t, s, "spec", "nullable").Nullable)
	target := resolve(t, s, "spec", "target")
	assert.Equal(t, schema.Untyped, *target.Scalar, "int-or-string")
	anything := resolve(t, s, "spec", "anything")
	assert.Equal(t, schema.Untyped, *anything.Scalar)
	assert.NotNil(t, anything.List)
	assert.NotNil(t, anything.Map)
	assert.Equal(t, schema.Atomic, resolve(t, s, "spec", "nested", "[]").List.ElementRelationship)
	emb := resolve(t, s, "spec", "embedded")
	assert.Equal(t, named(kapischema.ObjectMetaComponent), fieldOf(t, emb.Map, "metadata"), "an embedded resource gets ObjectMeta")
	assert.NotNil(t, fieldOf(t, emb.Map, "kind").Inlined.Scalar)
	assert.NotNil(t, fieldOf(t, emb.Map, "apiVersion").Inlined.Scalar)
	owners := resolve(t, s, "metadata", "ownerReferences")
	assert.Equal(t, []string{"uid"}, owners.List.Keys, "built-in ObjectMeta: ownerReferences by uid")
}

func TestSchemaConversionErrors(t *testing.T) {
	for name, tc := range map[string]struct{ schema, err string }{
		"an unknown list type":         {`{type: object, properties: {l: {type: array, items: {type: string}, x-kubernetes-list-type: bag}}}`, "unknown list type bag"},
		"a list-type map without keys": {`{type: object, properties: {l: {type: array, items: {type: object}, x-kubernetes-list-type: map}}}`, "missing map keys"},
		"an unknown map type":          {`{type: object, properties: {m: {type: object, x-kubernetes-map-type: sorted}}}`, "unknown map type sorted"},
		"an unknown type":              {`{type: object, properties: {x: {type: date}}}`, "unrecognized type: 'date'"},
		"an array without items":       {`{type: object, properties: {x: {type: array}}}`, "`items` must be specified on arrays"},
		"an unknown patch strategy":    {`{type: object, properties: {l: {type: array, items: {type: string}, x-kubernetes-patch-strategy: replace}}}`, "unknown patch strategy replace"},
		"a tuple":                      {`{type: object, properties: {l: {type: array, items: [{type: string}]}}}`, "`items` must be specified on arrays"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := New(gvkWidget, nonStructural(t, tc.schema))
			assert.ErrorContains(t, err, tc.err)
		})
	}
}

func TestTheBuiltinSchemasConvert(t *testing.T) {
	for name, s := range builtinComponents(t) {
		if _, ok := s.(map[string]any)["x-kubernetes-group-version-kind"]; !ok {
			continue
		}
		_, err := convertSchema(builtinComponent(t, name))
		assert.NoError(t, err, name)
	}
}

// objectMetaComponents returns the raw components of ObjectMeta and of
// what it refers to, as package schema embeds them.
func objectMetaComponents(t testing.TB) map[string]any {
	t.Helper()
	b, err := os.ReadFile("../schema/objectmeta.json")
	require.NoError(t, err)
	return obj(t, string(b))
}

// nonStructural parses a schema with schema.ParseWithOptions's
// NonStructural checks only, so that the conversion's own checks show.
func nonStructural(t testing.TB, y string) *kapischema.Schema {
	t.Helper()
	s, _, err := kapischema.ParseWithOptions(map[string]any(obj(t, y)), kapischema.ParseOptions{NonStructural: true})
	require.NoError(t, err)
	return s
}

// resolve walks s from the root type along field names ("[]" for a list's
// items, "*" for a map's other fields) and returns the atom found.
func resolve(t *testing.T, s *schema.Schema, path ...string) schema.Atom {
	t.Helper()
	a, ok := s.Resolve(named(rootName))
	require.True(t, ok)
	for _, p := range path {
		var tr schema.TypeRef
		switch {
		case p == "[]":
			require.NotNil(t, a.List, "%s", p)
			tr = a.List.ElementType
		case p == "*":
			require.NotNil(t, a.Map, "%s", p)
			tr = a.Map.ElementType
		default:
			require.NotNil(t, a.Map, "%s", p)
			tr = fieldOf(t, a.Map, p)
		}
		a, ok = s.Resolve(tr)
		require.True(t, ok, "resolving %s", p)
	}
	return a
}

func field(t *testing.T, s *schema.Schema, path ...string) schema.TypeRef {
	t.Helper()
	a := resolve(t, s, path[:len(path)-1]...)
	return fieldOf(t, a.Map, path[len(path)-1])
}

func fieldOf(t *testing.T, m *schema.Map, name string) schema.TypeRef {
	t.Helper()
	require.NotNil(t, m)
	f, ok := m.FindField(name)
	require.True(t, ok, "field %q", name)
	return f.Type
}

func TestTheZeroValueOfABuiltinKind(t *testing.T) {
	assert.JSONEq(t, `{
	  "metadata": {"creationTimestamp": null},
	  "spec": {
	    "selector": null,
	    "strategy": {},
	    "template": {"metadata": {"creationTimestamp": null}, "spec": {"containers": null}}
	  },
	  "status": {}
	}`, jsonOf(t, zeroTemplate(builtinComponent(t, "io.k8s.api.apps.v1.Deployment"))))
	assert.JSONEq(t, `{"metadata": {"creationTimestamp": null}}`,
		jsonOf(t, zeroTemplate(builtinComponent(t, "io.k8s.api.core.v1.ConfigMap"))))
	assert.Nil(t, zeroTemplate(kapischema.MustParse(map[string]any(obj(t, `{type: object, properties: {spec: {type: object, default: {}}}}`)))),
		"a custom resource starts from apiVersion and kind only")
	assert.Nil(t, zeroTemplate(nil))
}

func TestManagersOfOneParsedSchemaShareItsConversion(t *testing.T) {
	s := widgetCRDSchema(t)
	a, err := New(gvkWidget, s)
	require.NoError(t, err)
	b, err := NewWithConfig(Config{GVK: gvkWidget, Schema: s, Versions: []string{"v2"}})
	require.NoError(t, err)
	assert.Same(t, a.typed.Schema, b.typed.Schema, "converted once, kept with the parsed schema")

	c, err := New(gvkWidget, widgetCRDSchema(t))
	require.NoError(t, err)
	assert.NotSame(t, a.typed.Schema, c.typed.Schema, "another parse is another schema")

	deployment := builtinComponent(t, "io.k8s.api.apps.v1.Deployment")
	d1, err := New(meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, deployment)
	require.NoError(t, err)
	d2, err := New(meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, deployment)
	require.NoError(t, err)
	assert.Same(t, d1.typed.Schema, d2.typed.Schema)
	assert.Equal(t, reflect.ValueOf(d1.zero).Pointer(), reflect.ValueOf(d2.zero).Pointer(), "and so is the zero value")
}
