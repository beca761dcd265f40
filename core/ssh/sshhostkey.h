#pragma once

#include "ssh/sshoptions.h"

#include <QObject>

#include <memory>
#include <thread>

namespace LockScope {

class ThreadMailbox;

// An SSH server's host key as checked against known_hosts.
struct SshHostKey
{
    enum class State {
        Known, // in known_hosts: connect
        Unknown, // not there: show the fingerprint, connect only once the person accepts it
        Changed, // another key is known for that host: refused
        Failed, // could not get as far as the key (error says why)
    };
    State state = State::Failed;
    QString keyType; // "ssh-ed25519"
    QByteArray fingerprint; // "SHA256:..." as ssh-keygen -l prints it
    RedisError error; // for Unknown and Changed too: the text to show
};

// Connects to the SSH host only far enough to see its key (no authentication), in a thread of its own, so a
// front-end can ask about an unknown key before the real connection refuses it.
class SshHostKeyProbe : public QObject
{
    Q_OBJECT
public:
    SshHostKeyProbe(SshOptions options, int timeoutMs, QObject *parent = nullptr);
    ~SshHostKeyProbe() override;
    void start();

signals:
    void finished(const LockScope::SshHostKey &key);

private slots:
    void drainMailbox(); // the probe's thread's answer
private:
    SshOptions m_options;
    int m_timeoutMs;
    std::shared_ptr<ThreadMailbox> m_mailbox;
    std::thread m_thread;
    bool m_answered = false;
};

} // namespace LockScope

Q_DECLARE_METATYPE(LockScope::SshHostKey)
