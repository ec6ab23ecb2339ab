// Package openapitest checks HTTP answers against Break Room's OpenAPI document
// (transport/breakroom/openapi) with kin-openapi: the doors' tests call Check on every answer
// they get, so an answer the document does not describe (its path, its status, its body) fails
// the test that got it.
package openapitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"arena/transport/breakroom/openapi"
)

// errNoOperation: the document has no operation for the request's method and path.
var errNoOperation = errors.New("no operation")

var loaded = sync.OnceValues(func() (routers.Router, error) {
	doc, err := Load()
	if err != nil {
		return nil, err
	}
	doc.Servers = nil // any host: the tests' servers listen on loopback ports
	for _, ct := range []string{"application/jsonl", "text/event-stream", "image/svg+xml", "text/markdown", "text/html", "application/xml"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
	}
	return gorillamux.NewRouter(doc)
})

// Load loads the embedded document with kin-openapi and validates it (OpenAPI 3.1, its
// references resolved, its examples and defaults against their schemas).
func Load() (*openapi3.T, error) {
	l := openapi3.NewLoader()
	doc, err := l.LoadFromData(openapi.Document())
	if err != nil {
		return nil, fmt.Errorf("openapitest: load: %w", err)
	}
	if err := doc.Validate(context.Background(), openapi3.EnableExamplesValidation()); err != nil {
		return nil, fmt.Errorf("openapitest: validate: %w", err)
	}
	return doc, nil
}

// Check fails t unless the answer (status, header, body) to req is one the document describes:
// req's method and path are an operation of it, status is one of its responses (or its
// default), and the body fits that response's schema for its content type. A refusal (status
// 400 or more) of a request no operation matches (a test's probe of a path that is not one) is
// let through: the document describes the routes there are; a success there fails. req's body
// is not read.
func Check(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	err := Validate(req, status, header, body)
	if errors.Is(err, errNoOperation) && status >= 400 {
		return
	}
	if err != nil {
		t.Errorf("%s %s → %d does not fit the OpenAPI document: %v\nbody: %.600s", req.Method, req.URL.Path, status, err, body)
	}
}

// Validate is Check's finding as an error (nil when the answer fits).
func Validate(req *http.Request, status int, header http.Header, body []byte) error {
	router, err := loaded()
	if err != nil {
		return err
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("%w: %w", errNoOperation, err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status:  status,
		Header:  header,
		Body:    io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	return openapi3filter.ValidateResponse(context.Background(), in)
}
