package mms

import "net/url"

// query is the heartbeat's query: R2 reads desired_ttl_seconds and
// expected_last_heartbeat from the query, not the body.
func (p WorkHeartbeatParams) query() url.Values {
	q := url.Values{}
	if p.DesiredTTLSeconds != nil {
		q = queryInt(q, "desired_ttl_seconds", *p.DesiredTTLSeconds)
	}
	if p.ExpectedLastHeartbeat != "" {
		q.Set("expected_last_heartbeat", p.ExpectedLastHeartbeat)
	}
	return q
}
