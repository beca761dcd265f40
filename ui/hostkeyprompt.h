#pragma once

#include "redis/connectionoptions.h"
#include "ssh/sshhostkey.h"

#include <QObject>
#include <QPointer>

class QWidget;

namespace LockScope {

// Before a profile connects through SSH: looks at the SSH host's key and, when known_hosts does not know it, shows
// its fingerprint and connects only if the person accepts it (the key is then remembered). A changed key is refused
// with the reason. Never blocks: the probe runs in its own thread and the question is a window-modal box.
class HostKeyPrompt : public QObject
{
    Q_OBJECT
public:
    HostKeyPrompt(ConnectionOptions options, QWidget *window, QObject *parent = nullptr);
    void start();

signals:
    // The options to connect with (acceptHostKey set when the person accepted a new key), and the key for the
    // connection bar ("ssh-ed25519 SHA256:...").
    void proceed(const LockScope::ConnectionOptions &options, const QString &hostKey);
    void refused(const QString &reason);

private:
    void checked(const SshHostKey &key);

    ConnectionOptions m_options;
    QPointer<QWidget> m_window;
    SshHostKeyProbe *m_probe = nullptr;
};

} // namespace LockScope
