package transport

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/mms-sdk/mms-go/internal/config"
)

// redacted lists headers whose values never reach a log line.
var redacted = map[string]bool{
	"X-Api-Key": true, "Authorization": true, "Cookie": true, "Set-Cookie": true,
	"Proxy-Authorization": true,
	// Partner platforms' credentials (an AWS session token; Foundry's key).
	"X-Amz-Security-Token": true, "Api-Key": true,
}

// RedactHeader returns a copy of h with credentials and cookies replaced.
func RedactHeader(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for k, v := range h {
		if redacted[http.CanonicalHeaderKey(k)] {
			out[k] = []string{"[redacted]"}
			continue
		}
		out[k] = v
	}
	return out
}

func logAttempt(cfg *config.Config, r *http.Request, attempt int) {
	if cfg.Logger == nil || !cfg.Logger.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	cfg.Logger.LogAttrs(r.Context(), slog.LevelDebug, "mms request",
		slog.String("method", r.Method), slog.String("url", RedactURL(r.URL.String())),
		slog.String("attempt", FormatAttempts(attempt, cfg.MaxRetries)),
		slog.Any("header", RedactHeader(r.Header)))
}

func logResponse(cfg *config.Config, req *Request, resp *http.Response, attempt int, took time.Duration) {
	if cfg.Logger == nil || !cfg.Logger.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	var sent http.Header
	if resp.Request != nil {
		sent = resp.Request.Header
	}
	sc := NewScrubber(cfg, req, sent) // a server may echo a credential in a header
	cfg.Logger.LogAttrs(context.Background(), slog.LevelDebug, "mms response",
		slog.String("method", req.Method), slog.String("path", req.Path),
		slog.Int("status", resp.StatusCode), slog.String("request_id", resp.Header.Get("Request-Id")),
		slog.String("attempt", FormatAttempts(attempt, cfg.MaxRetries)), slog.Duration("took", took),
		slog.Any("header", RedactHeader(sc.Header(resp.Header))))
}

func logRetry(cfg *config.Config, req *Request, attempt int, delay time.Duration, cause error) {
	if cfg.Logger == nil {
		return
	}
	cfg.Logger.LogAttrs(context.Background(), slog.LevelInfo, "mms retry",
		slog.String("method", req.Method), slog.String("path", req.Path),
		slog.String("attempt", FormatAttempts(attempt, cfg.MaxRetries)),
		slog.Duration("delay", delay), slog.String("cause", cause.Error()))
}

// logPlatform logs an attempt as a platform adapter sends it (after
// logAttempt logged it in the service's shape).
func logPlatform(cfg *config.Config, r *http.Request, platform string) {
	if cfg.Logger == nil || !cfg.Logger.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	cfg.Logger.LogAttrs(r.Context(), slog.LevelDebug, "mms platform request",
		slog.String("platform", platform), slog.String("method", r.Method),
		slog.String("url", RedactURL(r.URL.String())), slog.Any("header", RedactHeader(r.Header)))
}
