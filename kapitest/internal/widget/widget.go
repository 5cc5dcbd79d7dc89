// Package widget is a small controller for the kit's own tests and
// examples: a Widget custom resource (testdata/crds/widgets.yaml) and a
// reconciler that keeps a ConfigMap per Widget and reports it ready, as a
// kubebuilder project's controller would.
package widget

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// GroupVersion is the Widget API's group and version.
var GroupVersion = schema.GroupVersion{Group: "example.kapi.dev", Version: "v1"}

// AddToScheme registers Widget and WidgetList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Widget{}, &WidgetList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

// Widget is the custom resource.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is what the user wants.
type WidgetSpec struct {
	Size  int64  `json:"size,omitempty"`
	Color string `json:"color,omitempty"`
}

// WidgetStatus is what the controller reports.
type WidgetStatus struct {
	Ready bool `json:"ready,omitempty"`
}

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// DeepCopyObject implements runtime.Object.
func (w *Widget) DeepCopyObject() runtime.Object {
	out := *w
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// DeepCopyObject implements runtime.Object.
func (l *WidgetList) DeepCopyObject() runtime.Object {
	out := *l
	out.Items = make([]Widget, len(l.Items))
	for i := range l.Items {
		out.Items[i] = *l.Items[i].DeepCopyObject().(*Widget)
	}
	return &out
}

// Reconciler keeps a ConfigMap "widget-NAME" holding each Widget's size
// and color, owned by the Widget, and sets the Widget's status ready. It
// writes nothing when both are already as they should be.
type Reconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with mgr.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&Widget{}).Owns(&corev1.ConfigMap{}).Complete(r)
}

// Reconcile implements reconcile.Reconciler.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	want := map[string]string{"size": strconv.FormatInt(w.Spec.Size, 10), "color": w.Spec.Color}
	var cm corev1.ConfigMap
	err := r.Get(ctx, client.ObjectKey{Namespace: w.Namespace, Name: "widget-" + w.Name}, &cm)
	switch {
	case apierrors.IsNotFound(err):
		cm = corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: "widget-" + w.Name}, Data: want}
		if err := controllerutil.SetControllerReference(&w, &cm, r.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Create(ctx, &cm); err != nil {
			return ctrl.Result{}, err
		}
	case err != nil:
		return ctrl.Result{}, err
	case cm.Data["size"] != want["size"] || cm.Data["color"] != want["color"]:
		cm.Data = want
		if err := r.Update(ctx, &cm); err != nil {
			return ctrl.Result{}, err
		}
	}
	if !w.Status.Ready {
		w.Status.Ready = true
		if err := r.Status().Update(ctx, &w); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}
