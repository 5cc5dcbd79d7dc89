package apiserver

import (
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// Discovery documents, shaped like kube-apiserver's (field order included).
type (
	apiVersions struct {
		Kind                       string                      `json:"kind"`
		Versions                   []string                    `json:"versions"`
		ServerAddressByClientCIDRs []serverAddressByClientCIDR `json:"serverAddressByClientCIDRs"`
	}
	serverAddressByClientCIDR struct {
		ClientCIDR    string `json:"clientCIDR"`
		ServerAddress string `json:"serverAddress"`
	}
	apiGroupList struct {
		Kind       string         `json:"kind"`
		APIVersion string         `json:"apiVersion"`
		Groups     []apiGroupJSON `json:"groups"`
	}
	apiGroupJSON struct {
		Kind             string                `json:"kind,omitempty"`
		APIVersion       string                `json:"apiVersion,omitempty"`
		Name             string                `json:"name"`
		Versions         []groupVersionForDisc `json:"versions"`
		PreferredVersion groupVersionForDisc   `json:"preferredVersion"`
	}
	groupVersionForDisc struct {
		GroupVersion string `json:"groupVersion"`
		Version      string `json:"version"`
	}
	apiResourceList struct {
		Kind         string            `json:"kind"`
		APIVersion   string            `json:"apiVersion,omitempty"`
		GroupVersion string            `json:"groupVersion"`
		Resources    []apiResourceJSON `json:"resources"`
	}
	apiResourceJSON struct {
		Name               string   `json:"name"`
		SingularName       string   `json:"singularName"`
		Namespaced         bool     `json:"namespaced"`
		Group              string   `json:"group,omitempty"`
		Version            string   `json:"version,omitempty"`
		Kind               string   `json:"kind"`
		Verbs              []string `json:"verbs"`
		ShortNames         []string `json:"shortNames,omitempty"`
		Categories         []string `json:"categories,omitempty"`
		StorageVersionHash string   `json:"storageVersionHash,omitempty"`
	}
)

// Aggregated discovery (apidiscovery.k8s.io/v2), which kubectl 1.30+ and
// client-go ask for first.
type (
	aggregatedList struct {
		Kind       string            `json:"kind"`
		APIVersion string            `json:"apiVersion"`
		Metadata   struct{}          `json:"metadata"`
		Items      []aggregatedGroup `json:"items"`
	}
	aggregatedGroup struct {
		Metadata aggregatedMeta      `json:"metadata"`
		Versions []aggregatedVersion `json:"versions"`
	}
	aggregatedMeta struct {
		Name              string `json:"name,omitempty"`
		CreationTimestamp any    `json:"creationTimestamp"`
		// zeroTimestampOmitted: the release's ObjectMeta omits a zero
		// creationTimestamp (1.34 and later).
		zeroTimestampOmitted bool
	}
	aggregatedVersion struct {
		Version   string               `json:"version"`
		Resources []aggregatedResource `json:"resources"`
		Freshness string               `json:"freshness"`
	}
	aggregatedResource struct {
		Resource         string                  `json:"resource"`
		ResponseKind     responseKind            `json:"responseKind"`
		Scope            string                  `json:"scope"`
		SingularResource string                  `json:"singularResource"`
		Verbs            []string                `json:"verbs"`
		ShortNames       []string                `json:"shortNames,omitempty"`
		Categories       []string                `json:"categories,omitempty"`
		Subresources     []aggregatedSubresource `json:"subresources,omitempty"`
	}
	responseKind struct {
		Group   string `json:"group"`
		Version string `json:"version"`
		Kind    string `json:"kind"`
	}
	aggregatedSubresource struct {
		Subresource  string       `json:"subresource"`
		ResponseKind responseKind `json:"responseKind"`
		Verbs        []string     `json:"verbs"`
	}
)

const aggregatedDiscoveryMediaType = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"

// wantsAggregated reports whether the Accept header prefers the aggregated
// discovery document (v2) to the legacy one.
func wantsAggregated(r *http.Request) bool {
	for _, m := range codec.ParseAccept(r.Header.Get("Accept")) {
		if m.Param("as") == "APIGroupDiscoveryList" {
			if m.Param("g") == "apidiscovery.k8s.io" && m.Param("v") == "v2" && m.MediaType() == codec.JSON {
				return true
			}
			continue
		}
		if m.Param("as") == "" && (m.Matches(codec.JSON) || m.Matches(codec.YAML)) {
			return false
		}
	}
	return false
}

// serveNonResource answers discovery, version and health paths.
func (s *Server) serveNonResource(w http.ResponseWriter, r *http.Request, info requestinfo.Info) {
	p := info.Path
	if isHealthPath(p) {
		if len(p) == 1 && !strings.HasSuffix(r.URL.Path, "/") {
			c := s.metrics.begin(&instrumentedWriter{}, w, r, info)
			defer s.metrics.end(&c)
			s.serveHealth(c.w, r, p)
			return
		}
		s.serveHealth(w, r, p)
		return
	}
	if len(p) == 1 && p[0] == "metrics" && r.URL.Path == "/metrics" { // any method, as kube
		w.Header()["Cache-Control"] = cacheControlValue
		s.metrics.registry.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		s.writeError(w, r, notFoundPath(r))
		return
	}
	reg := s.registry.Load()
	switch {
	case len(p) == 1 && p[0] == "api":
		if wantsAggregated(r) {
			s.writeAggregated(w, r, reg, true)
			return
		}
		s.writeValue(w, r, http.StatusOK, discoveryKind, apiVersions{
			Kind: "APIVersions", Versions: reg.coreVersions(),
			ServerAddressByClientCIDRs: []serverAddressByClientCIDR{{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host}},
		})
	case len(p) == 1 && p[0] == "apis":
		if wantsAggregated(r) {
			s.writeAggregated(w, r, reg, false)
			return
		}
		list := apiGroupList{Kind: "APIGroupList", APIVersion: "v1", Groups: []apiGroupJSON{}}
		for _, g := range reg.groups() {
			if g.name != "" {
				list.Groups = append(list.Groups, g.discovery(false))
			}
		}
		s.writeValue(w, r, http.StatusOK, discoveryKind, list)
	case len(p) == 2 && p[0] == "api":
		s.writeResourceList(w, r, reg, "", p[1])
	case len(p) == 2 && p[0] == "apis":
		g := reg.group(p[1])
		if g == nil || g.name == "" {
			http.NotFound(w, r)
			return
		}
		s.writeValue(w, r, http.StatusOK, discoveryKind, g.discovery(true))
	case len(p) == 3 && p[0] == "apis":
		s.writeResourceList(w, r, reg, p[1], p[2])
	case len(p) == 1 && p[0] == "version":
		s.writeVersion(w, r)
	case len(p) >= 2 && p[0] == "openapi" && (p[1] == "v2" && len(p) == 2 || p[1] == "v3"):
		s.serveOpenAPI(w, r, p)
	case len(p) >= 2 && p[0] == "api", len(p) >= 3 && p[0] == "apis" && reg.group(p[1]) != nil:
		s.writeError(w, r, notFoundPath(r))
	default:
		http.NotFound(w, r) // kube answers paths outside its API in plain text
	}
}

// writeVersion answers /version: JSON only, always indented, as kube does.
func (s *Server) writeVersion(w http.ResponseWriter, r *http.Request) {
	for _, m := range codec.ParseAccept(r.Header.Get("Accept")) {
		if m.Param("as") == "" && m.Matches(codec.JSON) {
			body, _ := json.MarshalIndent(s.version, "", "  ")
			writeBody(w, r, http.StatusOK, codec.JSONCodec{}, body)
			return
		}
	}
	s.writeError(w, r, meta.NotAcceptable([]string{codec.JSON}))
}

func (reg *registry) coreVersions() []string {
	versions := []string{}
	if g := reg.group(""); g != nil {
		for _, v := range g.versions {
			versions = append(versions, v.version)
		}
	}
	return versions
}

func (g *apiGroup) discovery(withTypeMeta bool) apiGroupJSON {
	out := apiGroupJSON{Name: g.name}
	if withTypeMeta {
		out.Kind, out.APIVersion = "APIGroup", "v1"
	}
	for _, v := range g.versions {
		out.Versions = append(out.Versions, groupVersionForDisc{GroupVersion: g.name + "/" + v.version, Version: v.version})
	}
	out.PreferredVersion = out.Versions[0]
	return out
}

func (s *Server) writeResourceList(w http.ResponseWriter, r *http.Request, reg *registry, group, version string) {
	g := reg.group(group)
	var v *apiVersion
	if g != nil {
		v = g.version(version)
	}
	if v == nil {
		if group != "" && g == nil {
			http.NotFound(w, r)
			return
		}
		s.writeError(w, r, notFoundPath(r))
		return
	}
	list := apiResourceList{Kind: "APIResourceList", GroupVersion: version, Resources: []apiResourceJSON{}}
	if group != "" {
		list.APIVersion, list.GroupVersion = "v1", group+"/"+version
	}
	for _, res := range v.resources {
		list.Resources = append(list.Resources, apiResourceJSON{
			Name: res.Plural, SingularName: res.Singular, Namespaced: res.Namespaced, Kind: res.Kind,
			Verbs: res.Verbs, ShortNames: res.ShortNames, Categories: res.Categories,
			StorageVersionHash: res.storageVersionHash(),
		})
		if res.Ephemeral {
			list.Resources[len(list.Resources)-1].StorageVersionHash = ""
		}
		for _, sub := range res.subresources() {
			sr := apiResourceJSON{Name: res.Plural + "/" + sub.name, Namespaced: res.Namespaced, Kind: res.Kind, Verbs: sub.verbs}
			if sub.kind.Kind != "" {
				sr.Group, sr.Version, sr.Kind = sub.kind.Group, sub.kind.Version, sub.kind.Kind
			}
			list.Resources = append(list.Resources, sr)
		}
	}
	s.writeValue(w, r, http.StatusOK, discoveryKind, list)
}

func (s *Server) writeAggregated(w http.ResponseWriter, r *http.Request, reg *registry, core bool) {
	list := aggregatedList{Kind: "APIGroupDiscoveryList", APIVersion: "apidiscovery.k8s.io/v2", Items: []aggregatedGroup{}}
	for _, g := range reg.groups() {
		if (g.name == "") != core {
			continue
		}
		item := aggregatedGroup{Metadata: aggregatedMeta{Name: g.name, zeroTimestampOmitted: s.kubeRelease.AtLeast(34)}}
		for _, v := range g.versions {
			av := aggregatedVersion{Version: v.version, Freshness: "Current", Resources: []aggregatedResource{}}
			for _, res := range v.resources {
				scope := "Cluster"
				if res.Namespaced {
					scope = "Namespaced"
				}
				ar := aggregatedResource{
					Resource: res.Plural, ResponseKind: responseKind{Kind: res.Kind}, Scope: scope,
					SingularResource: res.Singular, Verbs: res.Verbs, ShortNames: res.ShortNames, Categories: res.Categories,
				}
				for _, sub := range res.subresources() {
					rk := responseKind{Kind: res.Kind}
					if sub.kind.Kind != "" {
						rk = responseKind{Group: sub.kind.Group, Version: sub.kind.Version, Kind: sub.kind.Kind}
					}
					ar.Subresources = append(ar.Subresources, aggregatedSubresource{
						Subresource: sub.name, ResponseKind: rk, Verbs: sub.verbs,
					})
				}
				av.Resources = append(av.Resources, ar)
			}
			item.Versions = append(item.Versions, av)
		}
		list.Items = append(list.Items, item)
	}
	body, err := codec.JSONCodec{}.Encode(list)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// Clients revalidate aggregated discovery with If-None-Match; kube tags
	// it with a SHA-512 of the document and lets caches keep it.
	sum := sha512.Sum512(body)
	etag := `"` + strings.ToUpper(hex.EncodeToString(sum[:])) + `"`
	h := w.Header()
	h.Set("Cache-Control", "public")
	h.Set("Etag", etag)
	h.Set("Vary", "Accept")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", aggregatedDiscoveryMediaType)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(body)
		_, _ = w.Write([]byte{'\n'})
	}
}

type subresourceInfo struct {
	name  string
	verbs []string
	// kind is the kind the subresource answers with; empty: the resource's.
	kind meta.GroupVersionKind
	// serve answers a subresource that serves itself (Subresource.Serve).
	serve func(*SubresourceCall) (int, meta.Object, error)
	// def is the strategy's declaration (none for status and scale).
	def Subresource
}

// subresources lists the subresources a type serves, for discovery.
func (r *Resource) subresources() []subresourceInfo {
	var out []subresourceInfo
	for _, sub := range r.strategy().Subresources() {
		out = append(out, subresourceInfo{name: sub.Name, verbs: sub.Verbs, kind: sub.Kind, serve: sub.Serve, def: sub})
	}
	if r.Scale != nil {
		out = append(out, subresourceInfo{name: "scale", verbs: []string{VerbGet, VerbPatch, VerbUpdate}, kind: scaleKind})
	}
	if r.StatusSubresource {
		out = append(out, subresourceInfo{name: "status", verbs: []string{VerbGet, VerbPatch, VerbUpdate}})
	}
	slices.SortFunc(out, func(a, b subresourceInfo) int { return strings.Compare(a.name, b.name) })
	return out
}

// subresource finds a subresource the type serves.
func (r *Resource) subresource(name string) (subresourceInfo, bool) {
	for _, sub := range r.subresources() {
		if sub.name == name {
			return sub, true
		}
	}
	return subresourceInfo{}, false
}

// MarshalJSON writes the group's metadata as the release's ObjectMeta
// does: a null creationTimestamp until 1.33, none from 1.34.
func (m aggregatedMeta) MarshalJSON() ([]byte, error) {
	if m.zeroTimestampOmitted && m.CreationTimestamp == nil {
		return json.Marshal(struct {
			Name string `json:"name,omitempty"`
		}{m.Name})
	}
	return json.Marshal(struct {
		Name              string `json:"name,omitempty"`
		CreationTimestamp any    `json:"creationTimestamp"`
	}{m.Name, m.CreationTimestamp})
}
