/* SPDX-License-Identifier: Apache-2.0
 * srv_tls: the server's OpenSSL context. Without a configured certificate it creates a
 * self-signed RSA pair in meta_dir at first start (as MySQL 8 does) and reuses it afterwards.
 * Per-connection TLS runs over memory BIOs in srv_conn.c. See README.md §TLS. */
#include "server/srv_int.h"

#include <errno.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"

static int tls_error(db_error *err, const char *what);
static int generate_pair(const char *cert_path, const char *key_path, db_error *err);

/* Put OpenSSL's first queued error into err. */
static int
tls_error(db_error *err, const char *what)
{
    char detail[256];
    unsigned long e = ERR_get_error();
    if (e != 0) {
        ERR_error_string_n(e, detail, sizeof detail);
    } else {
        snprintf(detail, sizeof detail, "unknown error");
    }
    ERR_clear_error();
    char msg[512];
    snprintf(msg, sizeof msg, "TLS: %s: %s", what, detail);
    return db_error_set(err, ER_CONFIG, msg);
}

/* RSA-2048 key and a self-signed certificate valid for ten years, written with mode 0600. */
static int
generate_pair(const char *cert_path, const char *key_path, db_error *err)
{
    int rc = DB_ERR;
    EVP_PKEY *pkey = EVP_RSA_gen(2048);
    X509 *x = X509_new();
    FILE *kf = NULL, *cf = NULL;
    if (pkey == NULL || x == NULL) {
        tls_error(err, "key generation");
        goto out;
    }
    ASN1_INTEGER_set(X509_get_serialNumber(x), (long)time(NULL));
    X509_gmtime_adj(X509_getm_notBefore(x), 0);
    X509_gmtime_adj(X509_getm_notAfter(x), 10L * 365 * 24 * 3600);
    X509_set_version(x, 2);
    X509_set_pubkey(x, pkey);
    X509_NAME *name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               (const unsigned char *)"Rivulet_Server_Auto_Generated_Certificate",
                               -1, -1, 0);
    X509_set_issuer_name(x, name);
    if (X509_sign(x, pkey, EVP_sha256()) == 0) {
        tls_error(err, "certificate signing");
        goto out;
    }
    umask(077);
    kf = fopen(key_path, "w");
    cf = fopen(cert_path, "w");
    umask(022);
    if (kf == NULL || cf == NULL) {
        db_error_set(err, ER_IO_ERROR, kf == NULL ? key_path : cert_path, strerror(errno));
        goto out;
    }
    if (!PEM_write_PrivateKey(kf, pkey, NULL, NULL, 0, NULL, NULL) || !PEM_write_X509(cf, x)) {
        tls_error(err, "writing the generated pair");
        goto out;
    }
    rc = DB_OK;
out:
    if (kf != NULL && fclose(kf) != 0 && rc == DB_OK) {
        rc = db_error_set(err, ER_IO_ERROR, key_path, strerror(errno));
    }
    if (cf != NULL && fclose(cf) != 0 && rc == DB_OK) {
        rc = db_error_set(err, ER_IO_ERROR, cert_path, strerror(errno));
    }
    if (rc != DB_OK) {
        unlink(key_path);
        unlink(cert_path);
    }
    X509_free(x);
    EVP_PKEY_free(pkey);
    return rc;
}

SSL_CTX *
srv_tls_ctx_new(const char *cert, const char *key, const char *meta_dir, db_error *err)
{
    char cert_path[4096], key_path[4096];
    if ((cert[0] == '\0') != (key[0] == '\0')) {
        db_error_set(err, ER_CONFIG, "ssl_cert and ssl_key must be set together");
        return NULL;
    }
    if (cert[0] == '\0') {
        snprintf(cert_path, sizeof cert_path, "%s/server-cert.pem", meta_dir);
        snprintf(key_path, sizeof key_path, "%s/server-key.pem", meta_dir);
        if (access(cert_path, R_OK) != 0 || access(key_path, R_OK) != 0) {
            if (generate_pair(cert_path, key_path, err) != DB_OK) {
                return NULL;
            }
            log_info("generated a self-signed TLS certificate in %s", meta_dir);
        }
    } else {
        snprintf(cert_path, sizeof cert_path, "%s", cert);
        snprintf(key_path, sizeof key_path, "%s", key);
    }
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (ctx == NULL) {
        tls_error(err, "context");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION);
    if (SSL_CTX_use_certificate_chain_file(ctx, cert_path) != 1) {
        tls_error(err, cert_path);
        SSL_CTX_free(ctx);
        return NULL;
    }
    if (SSL_CTX_use_PrivateKey_file(ctx, key_path, SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(ctx) != 1) {
        tls_error(err, key_path);
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}
