// Package v1 is a Widget admission webhook laid out as kubebuilder
// scaffolds one (internal/webhook/v1 of a project): a defaulter and a
// validator registered with the Manager's webhook server, the markers
// controller-gen turns into ../../../testdata/webhook/manifests.yaml, and
// a Ginkgo suite (webhook_suite_test.go) that installs those manifests
// through envtest's WebhookInstallOptions. The suite runs on kapi with
// only its envtest import changed (see ../../../envtest_test.go).
package v1

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/kapi-dev/kapi/kapitest/internal/widget"
)

// MaxSize is the largest size the validator accepts.
const MaxSize = 10

// SetupWidgetWebhookWithManager registers the Widget webhooks with mgr's
// webhook server, at the paths of the markers below. They are registered
// as admission.Handlers, whose API is the same in every controller-runtime
// the kit supports (ctrl.NewWebhookManagedBy's changed in v0.23), and
// answer as its CustomDefaulter and CustomValidator adapters do.
func SetupWidgetWebhookWithManager(mgr ctrl.Manager) error {
	decoder := admission.NewDecoder(mgr.GetScheme())
	srv := mgr.GetWebhookServer()
	srv.Register("/mutate-example-kapi-dev-v1-widget", &webhook.Admission{Handler: &defaulting{decoder: decoder}})
	srv.Register("/validate-example-kapi-dev-v1-widget", &webhook.Admission{Handler: &validating{decoder: decoder}})
	return nil
}

// +kubebuilder:webhook:path=/mutate-example-kapi-dev-v1-widget,mutating=true,failurePolicy=fail,sideEffects=None,groups=example.kapi.dev,resources=widgets,verbs=create;update,versions=v1,name=mwidget-v1.kb.io,admissionReviewVersions=v1

// WidgetCustomDefaulter gives a Widget without a size the size 1.
type WidgetCustomDefaulter struct{}

// Default sets w's defaults.
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

// ValidateCreate validates a new Widget.
func (v *WidgetCustomValidator) ValidateCreate(_ context.Context, w *widget.Widget) (admission.Warnings, error) {
	return validateWidget(w)
}

// ValidateUpdate validates a changed Widget.
func (v *WidgetCustomValidator) ValidateUpdate(_ context.Context, _, w *widget.Widget) (admission.Warnings, error) {
	return validateWidget(w)
}

// ValidateDelete allows every delete.
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

// defaulting serves WidgetCustomDefaulter: the Widget decoded, defaulted
// and answered as a JSON patch.
type defaulting struct {
	decoder admission.Decoder
	WidgetCustomDefaulter
}

func (h *defaulting) Handle(ctx context.Context, req admission.Request) admission.Response {
	var w widget.Widget
	if err := h.decoder.Decode(req, &w); err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	if err := h.Default(ctx, &w); err != nil {
		return deny(err, nil)
	}
	defaulted, err := json.Marshal(&w)
	if err != nil {
		return admission.Errored(http.StatusInternalServerError, err)
	}
	return admission.PatchResponseFromRaw(req.Object.Raw, defaulted)
}

// validating serves WidgetCustomValidator.
type validating struct {
	decoder admission.Decoder
	WidgetCustomValidator
}

func (h *validating) Handle(ctx context.Context, req admission.Request) admission.Response {
	decode := func(raw runtime.RawExtension) (*widget.Widget, error) {
		var w widget.Widget
		return &w, h.decoder.DecodeRaw(raw, &w)
	}
	var warnings admission.Warnings
	var err error
	switch req.Operation {
	case admissionv1.Create, admissionv1.Update:
		var w *widget.Widget
		if w, err = decode(req.Object); err != nil {
			return admission.Errored(http.StatusBadRequest, err)
		}
		if req.Operation == admissionv1.Create {
			warnings, err = h.ValidateCreate(ctx, w)
			break
		}
		old, derr := decode(req.OldObject)
		if derr != nil {
			return admission.Errored(http.StatusBadRequest, derr)
		}
		warnings, err = h.ValidateUpdate(ctx, old, w)
	case admissionv1.Delete:
		old, derr := decode(req.OldObject)
		if derr != nil {
			return admission.Errored(http.StatusBadRequest, derr)
		}
		warnings, err = h.ValidateDelete(ctx, old)
	}
	if err != nil {
		return deny(err, warnings)
	}
	return admission.Allowed("").WithWarnings(warnings...)
}

// deny answers err as controller-runtime's adapters do: an API error's own
// Status, any other error 403 with its message.
func deny(err error, warnings admission.Warnings) admission.Response {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		s := status.Status()
		return admission.Response{AdmissionResponse: admissionv1.AdmissionResponse{Allowed: false, Result: &s, Warnings: warnings}}
	}
	return admission.Denied(err.Error()).WithWarnings(warnings...)
}
