package admin

import (
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// The members the beta twins of GA records carry (organization.md §18).
// The service returns them only to a request sending BetaExternalStorage
// (pass option.WithBeta(admin.BetaExternalStorage) to a Get); package
// admin sends it itself with a workspace create or update that sets
// InferenceDataPrivacy.

// BetaExternalStorage is the beta of External Storage and of the members
// it adds to workspaces and compliance settings.
const BetaExternalStorage = wire.BetaExternalStorage

// InferenceDataPrivacy is where a workspace's retained inference data and
// transcripts go, and whether the vendor's human review applies; each
// member is only for organizations it is enabled for.
//
//mms:json
type InferenceDataPrivacy struct {
	// HumanReview is {type} (e.g. "enabled" or "disabled").
	HumanReview *TypeOnly `json:"human_review,omitzero"`
	// SafeguardsStorage and TranscriptsStorage say where the data goes:
	// [InternalDataStorage] or [ExternalDataStorage].
	SafeguardsStorage  DataStorage `json:"safeguards_storage,omitzero"`
	TranscriptsStorage DataStorage `json:"transcripts_storage,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// validate reports a human review without a type, or external storage
// without its id.
func (d *InferenceDataPrivacy) validate() error {
	if d == nil {
		return nil
	}
	if d.HumanReview != nil {
		if err := required("inference_data_privacy.human_review.type", d.HumanReview.Type); err != nil {
			return err
		}
	}
	for _, s := range []struct {
		field string
		v     DataStorage
	}{{"inference_data_privacy.safeguards_storage", d.SafeguardsStorage}, {"inference_data_privacy.transcripts_storage", d.TranscriptsStorage}} {
		switch v := s.v.(type) {
		case nil, InternalDataStorage:
		case ExternalDataStorage:
			if err := required(s.field+".external_storage_id", v.ExternalStorageID); err != nil {
				return err
			}
		default:
			return invalid(s.field, "must be an InternalDataStorage or an ExternalDataStorage")
		}
	}
	return nil
}

// A DataStorage is where retained data goes: [InternalDataStorage],
// [ExternalDataStorage] or [UnknownDataStorage].
type DataStorage interface {
	json.Marshaler
	isDataStorage()
}

var dataStorageUnion = codec.NewUnion[DataStorage]("DataStorage", UnknownDataStorage{}).
	Add("internal", InternalDataStorage{}).
	Add("external", ExternalDataStorage{})

// InternalDataStorage is the vendor's storage (the wire type "internal").
type InternalDataStorage struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ExternalDataStorage is a registered customer-owned bucket (the wire
// type "external"; see [ExternalStorageService]).
type ExternalDataStorage struct {
	// ExternalStorageID is the storage ("estrg_…").
	ExternalStorageID string `json:"external_storage_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownDataStorage keeps a storage this SDK version cannot name.
type UnknownDataStorage struct {
	Type string
	Raw  json.RawMessage
}

// privacyBeta is the beta a workspace write setting d needs.
func privacyBeta(e endpoint[Workspace], d *InferenceDataPrivacy) endpoint[Workspace] {
	if d != nil {
		return e.beta(BetaExternalStorage)
	}
	return e
}
