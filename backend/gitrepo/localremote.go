package gitrepo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
)

// A remote on this machine (a folder, or a file:// URL) is reached through git's own
// upload-pack and receive-pack, as go-git's file transport reaches it, but started
// by localTransport, which go-git's is replaced by for the whole process (go-git keeps
// one transport per protocol): go-git's would start them in the folder MemoTree was
// started in, with its environment, and receive-pack would run the remote
// repository's hooks.
// useLocalTransport installs localTransport as go-git's transport for repositories on
// this machine, for the whole process, before the first fetch or push (not at start-up,
// which every process of MemoTree pays: see TestOwnPackagesInitCheaply).
var useLocalTransport = sync.OnceFunc(func() { client.InstallProtocol("file", localTransport{}) })

// localProtections are given to git's upload-pack and receive-pack, besides
// gitProtections, so that the remote repository's configuration (which may have come
// with the vault, a bare repository beside it in the same archive) makes them run no
// program: no command listing its alternates' references
// (core.alternateRefsCommand), no `git gc --auto` after a push (receive.autogc), and
// no checkout of a pushed branch into a working tree (receive.denyCurrentBranch
// updateInstead would check it out through the remote's filters).
var localProtections = []string{"-c", "core.alternateRefsCommand=", "-c", "receive.autogc=false",
	"-c", "receive.denyCurrentBranch=refuse"}

// localTransport starts git upload-pack or receive-pack for a repository on this
// machine, with gitEnviron's environment, gitProtections and localProtections, in the
// repository's folder, and speaks git's pack protocol with it.
type localTransport struct{}

// NewUploadPackSession starts git upload-pack for ep's repository.
func (localTransport) NewUploadPackSession(ep *transport.Endpoint, _ transport.AuthMethod) (transport.UploadPackSession, error) {
	return startLocal(transport.UploadPackServiceName, ep)
}

// NewReceivePackSession starts git receive-pack for ep's repository.
func (localTransport) NewReceivePackSession(ep *transport.Endpoint, _ transport.AuthMethod) (transport.ReceivePackSession, error) {
	return startLocal(transport.ReceivePackServiceName, ep)
}

// localPath returns the folder of a local endpoint, absolute (Repo.remote makes a
// relative remote absolute against the vault before go-git sees it).
func localPath(ep *transport.Endpoint) (string, error) {
	p := ep.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("remote %s: not an absolute path", ep.Path)
	}
	return filepath.Clean(p), nil
}

// startLocal starts service ("git-upload-pack" or "git-receive-pack") for ep.
func startLocal(service string, ep *transport.Endpoint) (*localSession, error) {
	dir, err := localPath(ep)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, transport.ErrRepositoryNotFound
	}
	args := append(slices.Concat(gitProtections, localProtections), strings.TrimPrefix(service, "git-"), dir)
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnviron(os.Environ())
	s := &localSession{cmd: cmd, service: service, receive: service == transport.ReceivePackServiceName,
		stderr: &cappedBuffer{max: 16 << 10}}
	cmd.Stderr = s.stderr
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.stdoutPipe, s.stdout = out, bufio.NewReaderSize(out, 64<<10)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start git %s: %w", strings.TrimPrefix(service, "git-"), err)
	}
	return s, nil
}

// localSession is one run of upload-pack or receive-pack: the references it
// advertises, then at most one request.
type localSession struct {
	cmd        *exec.Cmd
	service    string
	receive    bool
	stdin      io.WriteCloser
	stdoutPipe io.ReadCloser
	stdout     *bufio.Reader
	stderr     *cappedBuffer
	adv        *packp.AdvRefs
	sent       bool // a request was sent (else Close says goodbye with a flush)

	mu       sync.Mutex
	stops    []func() bool // the context watches (see watch)
	killed   error         // the context that killed the command, once it did
	closed   bool          // Close was called
	exited   bool          // the command was waited for
	closeErr error
}

// watch kills the command when ctx ends before the session is closed.
func (s *localSession) watch(ctx context.Context) {
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.exited && s.killed == nil {
			s.killed = ctx.Err()
			s.cmd.Process.Kill()
		}
	})
	s.mu.Lock()
	s.stops = append(s.stops, stop)
	s.mu.Unlock()
}

// AdvertisedReferences returns the references the command advertises.
func (s *localSession) AdvertisedReferences() (*packp.AdvRefs, error) {
	return s.AdvertisedReferencesContext(context.Background())
}

// AdvertisedReferencesContext returns the references the command advertises: an
// empty repository has none, which upload-pack answers with
// transport.ErrEmptyRemoteRepository.
func (s *localSession) AdvertisedReferencesContext(ctx context.Context) (*packp.AdvRefs, error) {
	if s.adv != nil {
		return s.adv, nil
	}
	s.watch(ctx)
	ar := packp.NewAdvRefs()
	err := ar.Decode(s.stdout)
	var errLine *pktline.ErrorLine
	switch {
	case err == nil:
	case errors.Is(err, packp.ErrEmptyAdvRefs) && s.receive: // an empty repository takes pushes
	case errors.Is(err, packp.ErrEmptyAdvRefs):
		s.Close()
		return nil, transport.ErrEmptyRemoteRepository
	case errors.Is(err, packp.ErrEmptyInput): // the command said nothing: its error says why
		return nil, s.failed(nil)
	case errors.As(err, &errLine):
		s.Close()
		return nil, fmt.Errorf("git %s: %w", strings.TrimPrefix(s.service, "git-"), err)
	default:
		return nil, s.failed(err)
	}
	if !s.receive && ar.IsEmpty() {
		s.Close()
		return nil, transport.ErrEmptyRemoteRepository
	}
	transport.FilterUnsupportedCapabilities(ar.Capabilities)
	s.adv = ar
	return ar, nil
}

// UploadPack sends a fetch's wants and haves and returns the answer, whose pack is
// read from the command; closing the answer closes the session.
func (s *localSession) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	if req.IsEmpty() { // everything wanted is here already
		s.Close()
		return nil, transport.ErrEmptyUploadPackRequest
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if _, err := s.AdvertisedReferencesContext(ctx); err != nil {
		return nil, err
	}
	s.watch(ctx)
	s.sent = true
	if err := req.UploadRequest.Encode(s.stdin); err != nil {
		return nil, s.failed(err)
	}
	if err := req.UploadHaves.Encode(s.stdin, true); err != nil {
		return nil, s.failed(err)
	}
	if err := pktline.NewEncoder(s.stdin).Encodef("done\n"); err != nil {
		return nil, s.failed(err)
	}
	if err := s.stdin.Close(); err != nil {
		return nil, s.failed(err)
	}
	if _, err := s.stdout.Peek(1); errors.Is(err, io.EOF) { // nothing to send
		s.Close()
		return nil, transport.ErrEmptyUploadPackRequest
	} else if err != nil {
		return nil, s.failed(err)
	}
	res := packp.NewUploadPackResponse(req)
	if err := res.Decode(sessionReader{s}); err != nil {
		return nil, s.failed(err)
	}
	return res, nil
}

// ReceivePack sends a push's reference updates and pack and returns the command's
// report.
func (s *localSession) ReceivePack(ctx context.Context, req *packp.ReferenceUpdateRequest) (*packp.ReportStatus, error) {
	if _, err := s.AdvertisedReferencesContext(ctx); err != nil {
		return nil, err
	}
	s.watch(ctx)
	s.sent = true
	if err := req.Encode(s.stdin); err != nil {
		return nil, s.failed(err)
	}
	if err := s.stdin.Close(); err != nil {
		return nil, s.failed(err)
	}
	if !req.Capabilities.Supports(capability.ReportStatus) {
		return nil, s.Close()
	}
	var r io.Reader = s.stdout
	switch {
	case req.Capabilities.Supports(capability.Sideband64k):
		r = demux(sideband.Sideband64k, r, req.Progress)
	case req.Capabilities.Supports(capability.Sideband):
		r = demux(sideband.Sideband, r, req.Progress)
	}
	report := packp.NewReportStatus()
	if err := report.Decode(r); err != nil {
		return nil, s.failed(err)
	}
	if err := report.Error(); err != nil {
		s.Close()
		return report, err
	}
	return report, s.Close()
}

func demux(t sideband.Type, r io.Reader, progress sideband.Progress) io.Reader {
	d := sideband.NewDemuxer(t, r)
	d.Progress = progress
	return d
}

// failed closes the session after err (nil when the command ended without a word)
// and returns the error to report: the context's when it ended the command,
// transport.ErrRepositoryNotFound when git says the folder is no repository, else
// err with what git wrote to its standard error.
func (s *localSession) failed(err error) error {
	s.Close()
	s.mu.Lock()
	killed := s.killed
	s.mu.Unlock()
	said := strings.TrimSpace(s.stderr.String())
	if len(said) > 1000 {
		said = said[:1000] + "…"
	}
	switch {
	case killed != nil:
		return killed
	case strings.Contains(said, "does not appear to be a git repository"):
		return transport.ErrRepositoryNotFound
	case said != "" && err != nil:
		return fmt.Errorf("git %s: %w (%s)", strings.TrimPrefix(s.service, "git-"), err, said)
	case said != "":
		return fmt.Errorf("git %s: %s", strings.TrimPrefix(s.service, "git-"), said)
	case err != nil:
		return fmt.Errorf("git %s: %w", strings.TrimPrefix(s.service, "git-"), err)
	}
	return fmt.Errorf("git %s: %w", strings.TrimPrefix(s.service, "git-"), io.ErrUnexpectedEOF)
}

// Close ends the session and waits for the command: a session that sent no request
// says goodbye with a flush, upon which the command ends. The command's exit status is
// not an error here (what went wrong was read from its answer); the context's end is.
func (s *localSession) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return s.closeErr
	}
	s.closed = true
	s.mu.Unlock()
	if !s.sent {
		s.stdin.Write(pktline.FlushPkt)
	}
	s.stdin.Close()
	s.stdoutPipe.Close() // a command still writing gets EPIPE rather than waiting for a reader
	err := s.cmd.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exited = true
	for _, stop := range s.stops {
		stop()
	}
	var exit *exec.ExitError
	switch {
	case s.killed != nil:
		s.closeErr = s.killed
	case err != nil && !errors.As(err, &exit):
		s.closeErr = fmt.Errorf("git %s: %w", strings.TrimPrefix(s.service, "git-"), err)
	}
	return s.closeErr
}

// sessionReader reads the rest of a session's answer (a fetch's pack); closing it
// closes the session.
type sessionReader struct{ s *localSession }

func (r sessionReader) Read(p []byte) (int, error) { return r.s.stdout.Read(p) }

func (r sessionReader) Close() error { return r.s.Close() }
