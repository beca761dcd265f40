#pragma once

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

class QNetworkAccessManager;

namespace LockScope {

// Where each audited action is told besides the audit log: webhooks (a chat channel's incoming hook, an incident
// tool) and syslog, so that a release on production is seen where people look, not only in a file on one bastion.
struct NotifyTargets
{
    QList<QUrl> webhooks; // POSTed the record as JSON, with a Slack-compatible "text" field
    QString syslogSocket; // the local syslog socket ("/dev/log"); empty: no syslog
    bool isEmpty() const { return webhooks.isEmpty() && syslogSocket.isEmpty(); }
    // A profile's notify list: "syslog" (the local syslog), "syslog:PATH" (that socket), else a webhook URL.
    void add(const QStringList &entries);
};

// Sends each audit line (as the audit log has it: ts, user, host and pid included) to every target. Webhooks are
// posted asynchronously, each with a deadline; a program that ends waits for pending() to reach 0 (or gives up after
// its own deadline). A target that fails never undoes the action: failed() says so, for a warning.
class AuditNotifier : public QObject
{
    Q_OBJECT
public:
    explicit AuditNotifier(NotifyTargets targets, QObject *parent = nullptr);

    void notify(const QJsonObject &line);
    int pending() const { return m_pending; }
    // The one line a person reads in a chat: who did what to which lock on which server, how it ended, and why.
    static QString text(const QJsonObject &line);
    // syslog(3)'s wire format for the local socket (RFC 3164 without the time, as the local daemon stamps it):
    // "<85>lockscope[PID]: {json}", facility authpriv, severity notice.
    static QByteArray syslogMessage(const QJsonObject &line, const QString &program);

signals:
    void failed(const QString &why);

private:
    void post(const QUrl &url, const QByteArray &body);
    bool sendSyslog(const QByteArray &message, QString *why) const;

    NotifyTargets m_targets;
    QNetworkAccessManager *m_network = nullptr;
    int m_pending = 0;
};

} // namespace LockScope
