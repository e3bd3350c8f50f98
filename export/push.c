/* Sending a pprof profile to a Pyroscope-compatible ingest endpoint with
 * libcurl (see pprof_push in include/evprof/pprof.h). Pyroscope's HTTP API:
 * POST /ingest with the metadata in the query (name, from, until, format)
 * and, for format=pprof, a multipart form whose "profile" part holds the
 * gzip-compressed profile.
 *
 * The URL is taken apart by libcurl's own parser (curl_url): only http
 * and https go further, a fragment is refused (it never reaches a server,
 * and what follows it would be lost), a query is kept and Pyroscope's
 * parameters are added to it (one that sets them itself is refused), the
 * path gets /ingest. Messages never show the URL's user and password. */
#include "evprof/pprof.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"

/* the parameters evprof sets: the URL's own query must not */
static const char *const pyroscope_params[] = { "name", "from", "until", "format" };

/* the server's answer is not ours to print: drop it */
static size_t discard(char *ptr, size_t size, size_t n, void *ctx)
{
    (void)ptr;
    (void)ctx;
    return size * n;
}

static ev_status curl_ready(ev_error *err)
{
    static int ready;
    if (!ready) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
            return ev_error_set(err, EV_ERR_NETWORK, "cannot initialise libcurl");
        ready = 1;
    }
    return EV_OK;
}

size_t pprof_push_url_shown(char *buf, size_t size, const char *url)
{
    /* the authority: after "scheme://", up to the first '/', '?' or '#' */
    const char *auth = strstr(url, "://");
    auth = auth ? auth + 3 : url;
    size_t alen = strcspn(auth, "/?#");
    const char *at = NULL;
    for (const char *p = auth; p < auth + alen; p++)
        if (*p == '@')
            at = p;
    if (!at)
        return (size_t)snprintf(buf, size, "%s", url);
    return (size_t)snprintf(buf, size, "%.*s***%s", (int)(auth - url), url, at);
}

/* Is the query key k[0..n) one of Pyroscope's parameters (percent-decoded
 * as a server would)? Returns its name, or NULL. */
static const char *reserved_key(CURL *c, const char *k, size_t n)
{
    int len = 0;
    char *dec = curl_easy_unescape(c, k, (int)n, &len);
    const char *hit = NULL;
    for (size_t i = 0; dec && !hit && i < sizeof pyroscope_params / sizeof *pyroscope_params; i++)
        if ((size_t)len == strlen(pyroscope_params[i]) &&
            strncasecmp(dec, pyroscope_params[i], (size_t)len) == 0)
            hit = pyroscope_params[i];
    curl_free(dec);
    return hit;
}

/* Parses and checks url into a new handle (*out), or returns
 * EV_ERR_USAGE (or EV_ERR_NOMEM) with the reason in err. */
static ev_status parse_url(CURL *c, const char *url, CURLU **out, ev_error *err)
{
    CURLU *u = curl_url();
    char *scheme = NULL, *fragment = NULL, *query = NULL;
    ev_status rc = EV_ERR_USAGE;
    *out = NULL;
    if (!u)
        return ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    CURLUcode uc = curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME);
    if (uc == CURLUE_BAD_SCHEME || uc == CURLUE_NO_SCHEME ||
        (uc == CURLUE_OK && curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK)) {
        ev_error_set(err, rc, "not an http:// or https:// URL");
        goto done;
    }
    if (uc != CURLUE_OK) {
        ev_error_set(err, rc, "not a URL (%s): give http://HOST[:PORT][/PATH]",
                     curl_url_strerror(uc));
        goto done;
    }
    if (strcasecmp(scheme, "http") != 0 && strcasecmp(scheme, "https") != 0) {
        ev_error_set(err, rc, "not an http:// or https:// URL (the scheme is %.32s)", scheme);
        goto done;
    }
    if (curl_url_get(u, CURLUPART_FRAGMENT, &fragment, 0) == CURLUE_OK) {
        ev_error_set(err, rc, "a fragment ('#...') is never sent to the server: remove it");
        goto done;
    }
    if (curl_url_get(u, CURLUPART_QUERY, &query, 0) == CURLUE_OK) {
        for (const char *p = query; *p;) {
            size_t n = strcspn(p, "&"), k = strcspn(p, "=&");
            const char *hit = reserved_key(c, p, k < n ? k : n);
            if (hit) {
                ev_error_set(err, rc, "the query sets '%s', which evprof sets for Pyroscope%s",
                             hit, strcmp(hit, "name") == 0 ? " (give --app)" : "");
                goto done;
            }
            p += n + (p[n] == '&');
        }
    }
    *out = u;
    u = NULL;
    rc = EV_OK;
done:
    curl_free(scheme);
    curl_free(fragment);
    curl_free(query);
    curl_url_cleanup(u);
    return rc;
}

ev_status pprof_push_url_check(const char *url, ev_error *err)
{
    ev_error_clear(err);
    ev_status rc = curl_ready(err);
    if (rc != EV_OK)
        return rc;
    CURL *c = curl_easy_init();
    if (!c)
        return ev_error_set(err, EV_ERR_NETWORK, "cannot initialise libcurl");
    CURLU *u;
    rc = parse_url(c, url, &u, err);
    curl_url_cleanup(u);
    curl_easy_cleanup(c);
    return rc;
}

/* URL/ingest?QUERY&name=..&from=..&until=..&format=pprof into u. */
static int ingest_url(CURL *c, CURLU *u, const char *app, int64_t from_sec, int64_t until_sec)
{
    char *path = NULL, *name = curl_easy_escape(c, app, 0), param[128];
    int rc = -1;
    if (!name || curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK)
        goto done;
    size_t base = strlen(path);
    while (base && path[base - 1] == '/')
        base--;
    char *full = malloc(base + sizeof "/ingest");
    if (!full)
        goto done;
    memcpy(full, path, base);
    memcpy(full + base, "/ingest", sizeof "/ingest");
    CURLUcode uc = curl_url_set(u, CURLUPART_PATH, full, 0);
    free(full);
    char *name_param = malloc(strlen(name) + sizeof "name=");
    if (uc != CURLUE_OK || !name_param)
        goto done_param;
    sprintf(name_param, "name=%s", name);
    if (curl_url_set(u, CURLUPART_QUERY, name_param, CURLU_APPENDQUERY) != CURLUE_OK)
        goto done_param;
    snprintf(param, sizeof param, "from=%lld", (long long)from_sec);
    if (curl_url_set(u, CURLUPART_QUERY, param, CURLU_APPENDQUERY) != CURLUE_OK)
        goto done_param;
    snprintf(param, sizeof param, "until=%lld", (long long)until_sec);
    if (curl_url_set(u, CURLUPART_QUERY, param, CURLU_APPENDQUERY) != CURLUE_OK ||
        curl_url_set(u, CURLUPART_QUERY, "format=pprof", CURLU_APPENDQUERY) != CURLUE_OK)
        goto done_param;
    rc = 0;
done_param:
    free(name_param);
done:
    curl_free(path);
    curl_free(name);
    return rc;
}

ev_status pprof_push_timed(const char *url, const char *app, int64_t from_sec, int64_t until_sec,
                           double timeout_s, const pprof_buf *profile, ev_error *err)
{
    ev_error_clear(err);
    ev_status rc = curl_ready(err);
    if (rc != EV_OK)
        return rc;
    if (until_sec <= from_sec)
        until_sec = from_sec + 1;
    if (!(timeout_s > 0))
        timeout_s = PPROF_PUSH_TIMEOUT_S;
    CURL *c = curl_easy_init();
    if (!c)
        return ev_error_set(err, EV_ERR_NETWORK, "cannot initialise libcurl");
    CURLU *u = NULL;
    curl_mime *mime = NULL;
    char cerr[CURL_ERROR_SIZE] = "";
    if ((rc = parse_url(c, url, &u, err)) != EV_OK)
        goto done;
    mime = curl_mime_init(c);
    curl_mimepart *part = mime ? curl_mime_addpart(mime) : NULL;
    if (!part || ingest_url(c, u, app, from_sec, until_sec) != 0) {
        rc = ev_error_set(err, EV_ERR_NOMEM, "out of memory");
        goto done;
    }
    curl_mime_name(part, "profile");
    curl_mime_filename(part, "profile.pprof");
    curl_mime_type(part, "application/octet-stream");
    curl_mime_data(part, (const char *)profile->data, profile->len);
    long timeout_ms = timeout_s >= 1e9 ? 1000000000000L : (long)(timeout_s * 1000.0 + 0.5);
    if (timeout_ms < 1)
        timeout_ms = 1;
    curl_easy_setopt(c, CURLOPT_CURLU, u);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_MIMEPOST, mime);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms < 30000 ? timeout_ms : 30000L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "evprof");
    CURLcode cr = curl_easy_perform(c);
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (cr != CURLE_OK)
        rc = ev_error_set(err, EV_ERR_NETWORK, "%s", *cerr ? cerr : curl_easy_strerror(cr));
    else if (status < 200 || status >= 300)
        rc = ev_error_set(err, EV_ERR_NETWORK, "the server answered HTTP %ld", status);
    else
        rc = EV_OK;
done:
    curl_mime_free(mime);
    curl_easy_cleanup(c);
    curl_url_cleanup(u);
    return rc;
}

ev_status pprof_push(const char *url, const char *app, int64_t from_sec, int64_t until_sec,
                     const pprof_buf *profile, ev_error *err)
{
    return pprof_push_timed(url, app, from_sec, until_sec, PPROF_PUSH_TIMEOUT_S, profile, err);
}
