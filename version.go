package mms

import (
	"fmt"
	"runtime"
)

// Version is the version of mms-go. It is sent in the User-Agent header of
// every request ("mms-go/<Version> (<go version>; <os>/<arch>)").
const Version = "0.2.0"

// userAgent is the User-Agent every client sends, unless WithHeader sets one.
var userAgent = fmt.Sprintf("mms-go/%s (%s; %s/%s)", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
