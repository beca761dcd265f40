#pragma once

#include "profiles/connectionprofile.h"

namespace LockScope {

// Passwords in the system keychain through QtKeychain (Secret Service, KWallet, ...). A keychain that answers
// "no backend" (a server without a session bus) makes the store unavailable: the password is then asked for each
// time, and never written anywhere else.
class KeychainSecretStore : public SecretStore
{
public:
    KeychainSecretStore();
    bool available() const override { return m_available; }
    void read(const QString &profile, std::function<void(const QByteArray &secret)> done) override;
    void write(const QString &profile, const QByteArray &secret) override;

    // A store that works here, or nullptr: the keychain when built with QtKeychain and a backend answers.
    static SecretStore *create();

private:
    bool m_available = true;
};

} // namespace LockScope
