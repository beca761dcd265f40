#include "redis/tlsconfig.h"

#include <QFile>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>

namespace LockScope {

namespace {
// The context lupdate gives the tr() calls below (it takes this for the usual tr()): keep them equal, or the
// translations never match.
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope", text);
}

bool failWith(RedisError *error, const QString &message)
{
    if (error)
        *error = RedisError(RedisError::Kind::InvalidArgument, message);
    return false;
}
} // namespace

bool configureTls(QSslSocket *socket, const ConnectionOptions &options, RedisError *error)
{
    if (!QSslSocket::supportsSsl())
        return failWith(error, tr("TLS is not available: Qt found no TLS backend (is OpenSSL 3 installed?)"));
    QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
    if (!options.tlsCaFile.isEmpty()) {
        const auto cas = QSslCertificate::fromPath(options.tlsCaFile, QSsl::Pem);
        if (cas.isEmpty())
            return failWith(error, tr("no CA certificate could be read from %1").arg(options.tlsCaFile));
        // A private CA replaces the system store, as with redis-cli --cacert.
        conf.setCaCertificates(cas);
    }
    if (options.tlsCertFile.isEmpty() != options.tlsKeyFile.isEmpty())
        return failWith(error, tr("a client certificate needs both --tls-cert and --tls-key"));
    if (!options.tlsCertFile.isEmpty()) {
        const auto certs = QSslCertificate::fromPath(options.tlsCertFile, QSsl::Pem);
        if (certs.isEmpty())
            return failWith(error, tr("no certificate could be read from %1").arg(options.tlsCertFile));
        QFile keyFile(options.tlsKeyFile);
        if (!keyFile.open(QIODevice::ReadOnly))
            return failWith(
                error, tr("cannot read the key file %1: %2").arg(options.tlsKeyFile, keyFile.errorString()));
        const QByteArray pem = keyFile.readAll();
        QSslKey key;
        for (auto algorithm : { QSsl::Rsa, QSsl::Ec, QSsl::Dsa }) {
            key = QSslKey(pem, algorithm, QSsl::Pem);
            if (!key.isNull())
                break;
        }
        if (key.isNull())
            return failWith(error, tr("%1 holds no unencrypted PEM private key").arg(options.tlsKeyFile));
        conf.setLocalCertificate(certs.first());
        conf.setPrivateKey(key);
    }
    conf.setPeerVerifyMode(options.tlsInsecure ? QSslSocket::VerifyNone : QSslSocket::VerifyPeer);
    socket->setSslConfiguration(conf);
    return true;
}

} // namespace LockScope
