package mmstest

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// A user profile's Google-managed data controls:
// GET and POST /v1/user_profiles/{user_profile_id}/providers/google/data_controls,
// beta user-profiles-2026-09-04 and google-managed-data-controls-2026-09-01.
//
// A profile starts with both controls disabled. An update {cmek?,
// storage?} changes the controls it names: {type: "enabled",
// external_key_ids?: region → key id} or {type: "disabled"} for cmek,
// {type: "enabled", buckets?: region → {bucket_name, project_number}} or
// {type: "disabled"} for storage. Regions left out keep their value; a
// replaced key or bucket, and all of them when a control is disabled, are
// listed as retired for retiredTTL. The fake checks nothing with Google:
// every configured region is "active" at once, validated at the update.
// The spec does not name the members of a region's status or of a retired
// entry beyond status, error, validated_at, last_checked_at, failed_checks
// and expires_at; the fake adds external_key_id or bucket_name and
// project_number to say which key or bucket they are about.

// retiredTTL is how long a retired key or bucket is listed.
const retiredTTL = 30 * 24 * time.Hour

// dataControls is a profile's controls state.
type dataControls struct {
	cmekOn, storageOn bool
	keys              map[string]string // region → external key id
	buckets           map[string]bucketWire
	retiredKeys       []map[string]any
	retiredBuckets    []map[string]any
	validatedAt       string // when a region was last configured
	updatedAt         string
}

// bucketWire is a region's bucket.
type bucketWire struct {
	BucketName    string `json:"bucket_name"`
	ProjectNumber string `json:"project_number"`
}

// dataControlsBody is an update body.
type dataControlsBody struct {
	CMEK *struct {
		Type           string            `json:"type"`
		ExternalKeyIDs map[string]string `json:"external_key_ids"`
	} `json:"cmek"`
	Storage *struct {
		Type    string                `json:"type"`
		Buckets map[string]bucketWire `json:"buckets"`
	} `json:"storage"`
}

// needDataControlsBetas answers 404 unless both betas were sent.
func needDataControlsBetas(w http.ResponseWriter, r *http.Request) bool {
	return needBeta(w, r, wire.BetaUserProfiles+"-2026-09-04") && needBeta(w, r, wire.BetaGoogleDataControls)
}

// getDataControls serves GET …/providers/google/data_controls.
func (st *userProfileStore) getDataControls(w http.ResponseWriter, r *http.Request) {
	if !needDataControlsBetas(w, r) {
		return
	}
	withFound(&st.mu, w, r, st.lookup, func(p *userProfileWire) {
		writeJSON(w, http.StatusOK, dataControlsRecord(p))
	})
}

// updateDataControls serves POST …/providers/google/data_controls.
func (st *userProfileStore) updateDataControls(w http.ResponseWriter, r *http.Request) {
	if !needDataControlsBetas(w, r) {
		return
	}
	var b dataControlsBody
	if err := decodeStrictJSON(r, &b); err != nil {
		badRequest(w, r, err)
		return
	}
	if err := checkDataControlsBody(&b); err != nil {
		badRequest(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.lookup, func(p *userProfileWire) {
		now := st.srv.now().UTC()
		dc := p.controls()
		retire := map[string]any{"expires_at": now.Add(retiredTTL).Format(fileTimeLayout)}
		if c := b.CMEK; c != nil {
			dc.cmekOn = c.Type == "enabled"
			for _, region := range slices.Sorted(maps.Keys(dc.keys)) {
				if k, ok := c.ExternalKeyIDs[region]; !dc.cmekOn || ok && k != dc.keys[region] {
					dc.retiredKeys = append(dc.retiredKeys, withMember(retire, "external_key_id", dc.keys[region]))
					delete(dc.keys, region)
				}
			}
			maps.Copy(dc.keys, c.ExternalKeyIDs)
		}
		if s := b.Storage; s != nil {
			dc.storageOn = s.Type == "enabled"
			for _, region := range slices.Sorted(maps.Keys(dc.buckets)) {
				if bk, ok := s.Buckets[region]; !dc.storageOn || ok && bk != dc.buckets[region] {
					old := dc.buckets[region]
					dc.retiredBuckets = append(dc.retiredBuckets, withMember(withMember(retire,
						"bucket_name", old.BucketName), "project_number", old.ProjectNumber))
					delete(dc.buckets, region)
				}
			}
			maps.Copy(dc.buckets, s.Buckets)
		}
		dc.validatedAt = now.Format(fileTimeLayout)
		dc.updatedAt = dc.validatedAt
		writeJSON(w, http.StatusOK, dataControlsRecord(p))
	})
}

// checkDataControlsBody applies the update rules: each control's type,
// no regions when disabled, no empty region, key or bucket member.
func checkDataControlsBody(b *dataControlsBody) error {
	check := func(field, typ, mapName string, regions []string, empty func(string) bool) error {
		switch typ {
		case "enabled":
		case "disabled":
			if len(regions) > 0 {
				return fmt.Errorf("%s.%s: not allowed when %s is disabled", field, mapName, field)
			}
		default:
			return fmt.Errorf("%s.type: Input should be 'enabled' or 'disabled'", field)
		}
		for _, region := range regions {
			if strings.TrimSpace(region) == "" || empty(region) {
				return fmt.Errorf("%s.%s.%s: must not be empty", field, mapName, region)
			}
		}
		return nil
	}
	if c := b.CMEK; c != nil {
		if err := check("cmek", c.Type, "external_key_ids", slices.Sorted(maps.Keys(c.ExternalKeyIDs)),
			func(region string) bool { return c.ExternalKeyIDs[region] == "" }); err != nil {
			return err
		}
	}
	if s := b.Storage; s != nil {
		return check("storage", s.Type, "buckets", slices.Sorted(maps.Keys(s.Buckets)), func(region string) bool {
			return s.Buckets[region].BucketName == "" || s.Buckets[region].ProjectNumber == ""
		})
	}
	if b.CMEK == nil && b.Storage == nil {
		return errors.New("body: set cmek, storage or both")
	}
	return nil
}

// controls returns p's data-controls state, made on first use. The
// store's lock is held.
func (p *userProfileWire) controls() *dataControls {
	if p.dataControls == nil {
		p.dataControls = &dataControls{keys: map[string]string{}, buckets: map[string]bucketWire{}, updatedAt: p.CreatedAt}
	}
	return p.dataControls
}

// dataControlsRecord is p's google_managed_data_controls record. The
// store's lock is held.
func dataControlsRecord(p *userProfileWire) map[string]any {
	dc := p.controls()
	status := func(member func(region string) map[string]any, regions []string) map[string]any {
		out := map[string]any{}
		for _, region := range regions {
			s := map[string]any{"status": "active", "error": nil, "validated_at": dc.validatedAt,
				"last_checked_at": dc.validatedAt, "failed_checks": []string{}}
			maps.Copy(s, member(region))
			out[region] = s
		}
		return out
	}
	cmek := map[string]any{"type": "disabled", "retired_keys": nonNil(dc.retiredKeys)}
	if dc.cmekOn {
		cmek = map[string]any{"type": "enabled", "external_key_ids": dc.keys, "retired_keys": nonNil(dc.retiredKeys),
			"status": status(func(region string) map[string]any {
				return map[string]any{"external_key_id": dc.keys[region]}
			}, slices.Sorted(maps.Keys(dc.keys)))}
	}
	storage := map[string]any{"type": "disabled", "retired_buckets": nonNil(dc.retiredBuckets)}
	if dc.storageOn {
		storage = map[string]any{"type": "enabled", "buckets": dc.buckets, "retired_buckets": nonNil(dc.retiredBuckets),
			"status": status(func(region string) map[string]any {
				return map[string]any{"bucket_name": dc.buckets[region].BucketName, "project_number": dc.buckets[region].ProjectNumber}
			}, slices.Sorted(maps.Keys(dc.buckets)))}
	}
	return map[string]any{"type": "google_managed_data_controls", "user_profile_id": p.ID,
		"bucket_label_value": "mms-" + p.ID, "cmek": cmek, "storage": storage, "updated_at": dc.updatedAt}
}

// withMember is a copy of m with k set to v.
func withMember(m map[string]any, k string, v any) map[string]any {
	c := maps.Clone(m)
	c[k] = v
	return c
}

// nonNil is s, or an empty slice for nil, so that it encodes as [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
