/* Sending a pprof profile to a Pyroscope-compatible ingest endpoint with
 * libcurl (see pprof_push in include/evprof/pprof.h). Pyroscope's HTTP API:
 * POST /ingest with the metadata in the query (name, from, until, format)
 * and, for format=pprof, a multipart form whose "profile" part holds the
 * gzip-compressed profile. */
#include "evprof/pprof.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the server's answer is not ours to print: drop it */
static size_t discard(char *ptr, size_t size, size_t n, void *ctx)
{
    (void)ptr;
    (void)ctx;
    return size * n;
}

int pprof_push(const char *url, const char *app, int64_t from_sec, int64_t until_sec,
               const pprof_buf *profile, char *err, size_t err_size)
{
    static int curl_ready;
    if (!curl_ready) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
            snprintf(err, err_size, "cannot initialise libcurl");
            return -1;
        }
        curl_ready = 1;
    }
    if (until_sec <= from_sec)
        until_sec = from_sec + 1;
    CURL *c = curl_easy_init();
    if (!c) {
        snprintf(err, err_size, "cannot initialise libcurl");
        return -1;
    }
    int rc = -1;
    char *name = curl_easy_escape(c, app, 0);
    size_t base = strlen(url);
    while (base && url[base - 1] == '/')
        base--;
    size_t len = base + (name ? strlen(name) : 0) + 128;
    char *full = malloc(len);
    curl_mime *mime = curl_mime_init(c);
    curl_mimepart *part = mime ? curl_mime_addpart(mime) : NULL;
    char cerr[CURL_ERROR_SIZE] = "";
    if (!name || !full || !part) {
        snprintf(err, err_size, "out of memory");
        goto done;
    }
    snprintf(full, len, "%.*s/ingest?name=%s&from=%lld&until=%lld&format=pprof", (int)base, url,
             name, (long long)from_sec, (long long)until_sec);
    curl_mime_name(part, "profile");
    curl_mime_filename(part, "profile.pprof");
    curl_mime_type(part, "application/octet-stream");
    curl_mime_data(part, (const char *)profile->data, profile->len);
    curl_easy_setopt(c, CURLOPT_URL, full);
    curl_easy_setopt(c, CURLOPT_MIMEPOST, mime);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 300L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "evprof");
    CURLcode cr = curl_easy_perform(c);
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (cr != CURLE_OK)
        snprintf(err, err_size, "%s", *cerr ? cerr : curl_easy_strerror(cr));
    else if (status < 200 || status >= 300)
        snprintf(err, err_size, "the server answered HTTP %ld", status);
    else
        rc = 0;
done:
    curl_mime_free(mime);
    free(full);
    curl_free(name);
    curl_easy_cleanup(c);
    return rc;
}
