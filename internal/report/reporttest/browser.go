package reporttest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// envScreenshots names a directory where Screenshot also copies every
// picture it takes, to look at them.
const envScreenshots = "REPORT_SCREENSHOTS"

// SelfContained fails if page could load anything from elsewhere: a
// script, a style sheet, an image or a font by address, or any link.
func SelfContained(t *testing.T, page string) {
	t.Helper()
	lower := strings.ToLower(page)
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "<object", "<embed", "@import", "url(", "src=", "href=", "http:", "https:"} {
		if strings.Contains(lower, bad) {
			t.Errorf("the page holds %q: it must not load anything", bad)
		}
	}
	if !strings.Contains(page, "<svg") {
		t.Error("the page has no inline SVG")
	}
}

// Screenshot renders an HTML page in headless Chromium, width pixels
// wide and height high, checks that the picture is not blank, and
// returns its path. It skips the test, saying how to install it, when
// Chromium is not installed (scripts/setup.sh installs it). With
// REPORT_SCREENSHOTS=dir set, the picture is also copied there as
// name.png.
func Screenshot(t *testing.T, name, page string, width, height int) string {
	t.Helper()
	browser := ""
	for _, b := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(b); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("chromium is not installed, so the HTML report is not rendered: scripts/setup.sh installs it (Debian package chromium)")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, name+".html")
	out := filepath.Join(dir, name+".png")
	if err := os.WriteFile(src, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height), "--screenshot="+out, "file://"+src)
	cmd.Env = append(os.Environ(), "HOME="+dir) // nothing of the user's profile
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if ink, colors := inked(img); ink < 0.02 || colors < 8 {
		t.Errorf("the screenshot looks blank: %.1f%% of it is not white, in %d colors", ink*100, colors)
	}
	if d := os.Getenv(envScreenshots); d != "" {
		if err := os.WriteFile(filepath.Join(d, name+".png"), b, 0o644); err != nil {
			t.Error(err)
		}
	}
	return out
}

// inked is the share of img's pixels that are not white, and how many
// colors it has (up to 1000).
func inked(img image.Image) (float64, int) {
	bounds := img.Bounds()
	colors := map[[3]uint32]bool{}
	ink := 0
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r < 0xf000 || g < 0xf000 || b < 0xf000 {
				ink++
			}
			if len(colors) < 1000 {
				colors[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
			}
		}
	}
	return float64(ink) / float64(bounds.Dx()*bounds.Dy()), len(colors)
}

// ColorsIn counts how many of colors ("#4e79a7") appear exactly in the
// PNG image at path, as a person would see them in a screenshot.
func ColorsIn(t *testing.T, path string, colors []string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	want := map[[3]uint32]bool{}
	for _, c := range colors {
		var r, g, b uint32
		if _, err := fmt.Sscanf(c, "#%02x%02x%02x", &r, &g, &b); err != nil {
			t.Fatalf("color %q: %v", c, err)
		}
		want[[3]uint32{r, g, b}] = true
	}
	found := map[[3]uint32]bool{}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if c := [3]uint32{r >> 8, g >> 8, b >> 8}; want[c] {
				found[c] = true
			}
		}
	}
	return len(found)
}
