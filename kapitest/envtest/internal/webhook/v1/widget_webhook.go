// Package v1 is a Widget admission webhook laid out as kubebuilder
// scaffolds one (internal/webhook/v1 of a project): a defaulter and a
// validator registered with ctrl.NewWebhookManagedBy, the markers
// controller-gen turns into ../../../testdata/webhook/manifests.yaml, and
// a Ginkgo suite (webhook_suite_test.go) that installs those manifests
// through envtest's WebhookInstallOptions. The suite runs on kapi with
// only its envtest import changed (see ../../../envtest_test.go).
package v1

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/kapi-dev/kapi/kapitest/internal/widget"
)

// MaxSize is the largest size the validator accepts.
const MaxSize = 10

// SetupWidgetWebhookWithManager registers the Widget webhooks with mgr's
// webhook server.
func SetupWidgetWebhookWithManager(mgr ctrl.Manager) error {
	return ctrl.NewWebhookManagedBy(mgr, &widget.Widget{}).
		WithValidator(&WidgetCustomValidator{}).
		WithDefaulter(&WidgetCustomDefaulter{}).
		Complete()
}

// +kubebuilder:webhook:path=/mutate-example-kapi-dev-v1-widget,mutating=true,failurePolicy=fail,sideEffects=None,groups=example.kapi.dev,resources=widgets,verbs=create;update,versions=v1,name=mwidget-v1.kb.io,admissionReviewVersions=v1

// WidgetCustomDefaulter gives a Widget without a size the size 1.
type WidgetCustomDefaulter struct{}

// Default implements admission.Defaulter.
func (d *WidgetCustomDefaulter) Default(_ context.Context, w *widget.Widget) error {
	if w.Spec.Size == 0 {
		w.Spec.Size = 1
	}
	return nil
}

// +kubebuilder:webhook:path=/validate-example-kapi-dev-v1-widget,mutating=false,failurePolicy=fail,sideEffects=None,groups=example.kapi.dev,resources=widgets,verbs=create;update,versions=v1,name=vwidget-v1.kb.io,admissionReviewVersions=v1

// WidgetCustomValidator refuses Widgets larger than MaxSize (as an
// Invalid error with its cause, as kubebuilder's scaffold words field
// errors) and red Widgets (as a plain error), and warns of grey ones.
type WidgetCustomValidator struct{}

// ValidateCreate implements admission.Validator.
func (v *WidgetCustomValidator) ValidateCreate(_ context.Context, w *widget.Widget) (admission.Warnings, error) {
	return validateWidget(w)
}

// ValidateUpdate implements admission.Validator.
func (v *WidgetCustomValidator) ValidateUpdate(_ context.Context, _, w *widget.Widget) (admission.Warnings, error) {
	return validateWidget(w)
}

// ValidateDelete implements admission.Validator.
func (v *WidgetCustomValidator) ValidateDelete(context.Context, *widget.Widget) (admission.Warnings, error) {
	return nil, nil
}

func validateWidget(w *widget.Widget) (admission.Warnings, error) {
	var warnings admission.Warnings
	if w.Spec.Color == "grey" {
		warnings = append(warnings, "grey widgets are hard to see")
	}
	if w.Spec.Color == "red" {
		return warnings, errors.New("red widgets are not allowed")
	}
	if w.Spec.Size > MaxSize {
		return warnings, apierrors.NewInvalid(widget.GroupVersion.WithKind("Widget").GroupKind(), w.Name, field.ErrorList{
			field.Invalid(field.NewPath("spec", "size"), w.Spec.Size, "must be at most 10"),
		})
	}
	return warnings, nil
}
