#pragma once

#include <QGroupBox>

class QLineEdit;

namespace LockScope {

struct ConnectionProfile;

// The connection dialog's SSH tunnel: a checkable group with the SSH host, the key, the known_hosts file and the
// password (kept, like the Redis password, in the keychain only).
class SshFields : public QGroupBox
{
    Q_OBJECT
public:
    explicit SshFields(QWidget *parent = nullptr);

    void load(const ConnectionProfile &profile);
    void store(ConnectionProfile *profile) const; // not the password
    QByteArray password() const;
    void setPassword(const QByteArray &password);
    QString target() const; // USER@HOST[:PORT] when the tunnel is on, else empty

signals:
    void changed();

private:
    QLineEdit *m_target;
    QLineEdit *m_key;
    QLineEdit *m_knownHosts;
    QLineEdit *m_password;
};

} // namespace LockScope
