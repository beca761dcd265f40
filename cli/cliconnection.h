#pragma once

#include "profiles/profileconnection.h"
#include "redis/connectionoptions.h"
#include "ssh/sshhostkey.h"

#include <QCommandLineParser>

#include <optional>

namespace LockScope::Cli {

// The connection options of conventions.md, shared by every command.
// The options every command takes: where and how to connect, --read-only, --json.
QList<QCommandLineOption> connectionOptions();
void addConnectionOptions(QCommandLineParser &parser);
// Builds the options; the password comes from the URL, --password-env or --password-stdin, never argv alone. With a
// saved profile (--profile), where to connect comes from it and its passwords from the keychain (secrets), and the
// options that say where to connect are refused: the person would not know which of the two was used.
ConnectionOptions connectionFrom(const QCommandLineParser &parser, RedisError *error,
    const ConnectionProfile *profile = nullptr, const ProfileSecrets &secrets = {});
// --profile NAME: the console's saved connection of that name, or the usage error.
std::optional<ConnectionProfile> profileFrom(const QCommandLineParser &parser, RedisError *error);
// A line from the terminal (/dev/tty) with echo off; nothing when there is no terminal.
std::optional<QByteArray> readSecretFromTerminal(const QString &prompt);
// Shows an unknown host key's fingerprint on the terminal and asks whether to accept it; nothing without a terminal.
std::optional<bool> confirmHostKey(const SshHostKey &key, const SshOptions &ssh);

} // namespace LockScope::Cli
