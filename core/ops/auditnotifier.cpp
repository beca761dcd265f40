#include "ops/auditnotifier.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

namespace LockScope {

namespace {
constexpr int kWebhookTimeoutMs = 10000;
constexpr int kSyslogAuthprivNotice = 10 * 8 + 5; // LOG_AUTHPRIV | LOG_NOTICE: who changed what, for the admins
} // namespace

void NotifyTargets::add(const QStringList &entries)
{
    for (const QString &entry : entries) {
        if (entry == QLatin1String("syslog"))
            syslogSocket = QStringLiteral("/dev/log");
        else if (entry.startsWith(QLatin1String("syslog:")))
            syslogSocket = entry.mid(7);
        else
            webhooks << QUrl(entry);
    }
}

AuditNotifier::AuditNotifier(NotifyTargets targets, QObject *parent)
    : QObject(parent)
    , m_targets(std::move(targets))
{ }

QString AuditNotifier::text(const QJsonObject &line)
{
    const auto field = [&line](const char *key) { return line.value(QLatin1String(key)).toString(); };
    QString target = field("name");
    if (target.isEmpty())
        target = field("client");
    QString out = QStringLiteral("%1@%2: %3").arg(field("user"), field("host"), field("action"));
    if (!target.isEmpty())
        out += QLatin1Char(' ') + target;
    out += QStringLiteral(" on %1: %2").arg(field("url"), field("outcome"));
    if (field("outcome") == QLatin1String("failed"))
        out += QStringLiteral(" (%1)").arg(field("result"));
    if (!field("reason").isEmpty())
        out += QStringLiteral(", reason: %1").arg(field("reason"));
    return out;
}

QByteArray AuditNotifier::syslogMessage(const QJsonObject &line, const QString &program)
{
    return '<' + QByteArray::number(kSyslogAuthprivNotice) + '>' + program.toUtf8() + '['
        + QByteArray::number(QCoreApplication::applicationPid())
        + "]: " + QJsonDocument(line).toJson(QJsonDocument::Compact);
}

void AuditNotifier::notify(const QJsonObject &line)
{
    if (!m_targets.syslogSocket.isEmpty()) {
        QString why;
        if (!sendSyslog(syslogMessage(line, QCoreApplication::applicationName()), &why))
            emit failed(tr("syslog (%1): %2").arg(m_targets.syslogSocket, why));
    }
    if (m_targets.webhooks.isEmpty())
        return;
    QJsonObject body = line;
    body.insert(QStringLiteral("text"), text(line)); // what a Slack or Mattermost incoming webhook shows
    const QByteArray json = QJsonDocument(body).toJson(QJsonDocument::Compact);
    for (const QUrl &url : std::as_const(m_targets.webhooks))
        post(url, json);
}

void AuditNotifier::post(const QUrl &url, const QByteArray &body)
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    request.setTransferTimeout(kWebhookTimeoutMs);
    ++m_pending;
    QNetworkReply *reply = m_network->post(request, body);
    connect(reply, &QNetworkReply::finished, this, [this, reply, url] {
        reply->deleteLater();
        --m_pending;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() != QNetworkReply::NoError || status < 200 || status >= 300)
            // The URL without its path: a webhook's path is its secret.
            emit failed(tr("webhook %1: %2")
                            .arg(url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveUserInfo).toString(),
                                reply->error() != QNetworkReply::NoError ? reply->errorString()
                                                                         : tr("HTTP status %1").arg(status)));
    });
}

bool AuditNotifier::sendSyslog(const QByteArray &message, QString *why) const
{
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    const QByteArray path = m_targets.syslogSocket.toLocal8Bit();
    if (path.size() >= int(sizeof(address.sun_path))) {
        *why = tr("the socket path is too long");
        return false;
    }
    std::memcpy(address.sun_path, path.constData(), path.size());
    const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *why = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    const ssize_t sent = ::sendto(fd, message.constData(), size_t(message.size()), 0,
        reinterpret_cast<const sockaddr *>(&address), socklen_t(sizeof(address)));
    const int error = errno;
    ::close(fd);
    if (sent != message.size()) {
        *why = QString::fromLocal8Bit(std::strerror(error));
        return false;
    }
    return true;
}

} // namespace LockScope
