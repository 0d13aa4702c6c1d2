#!/bin/sh
# Perl DBI + DBD::ODBC (libdbd-odbc-perl) or PHP's odbc_* functions (php-odbc,
# php-cli) through unixODBC and libixodbc against a real ixd: connect by DSN
# and by connection string, DDL, inserts with placeholders (NULL included),
# a query read back with its types (an INTERVAL as the Informix text), an error with its SQLSTATE and Informix
# text, a transaction rolled back, a 100,000-byte value into TEXT and back
# (sent at execution: DBD::ODBC above odbc_putdata_start, PHP's quoted
# file name parameter).
# usage: test_perl_php.sh perl|php (IXD_BIN: ixd, IXODBC_LIB: libixodbc.so);
# exit 77 (skipped) when the client is not installed
IXD=${IXD_BIN:?}
LIB=${IXODBC_LIB:?}
which=$1
. "$(dirname "$0")/../shell/lib.sh"
case $which in
perl) perl -MDBD::ODBC -e 1 2> /dev/null || { echo "DBD::ODBC not installed (Debian libdbd-odbc-perl): skipped"; exit 77; } ;;
php)
    # PHP loads its extensions with RTLD_DEEPBIND, which the sanitizer runtime
    # a sanitizer build preloads refuses
    case ${LD_PRELOAD:-} in *asan*) echo "PHP cannot run under the sanitizer runtime: skipped"; exit 77 ;; esac
    php -r 'exit(function_exists("odbc_connect") ? 0 : 1);' || { echo "php-odbc not installed: skipped"; exit 77; } ;;
esac

# ixd runs without the sanitizer runtime a sanitizer build preloads for the
# clients (ixd carries its own)
preload=${LD_PRELOAD:-}
unset LD_PRELOAD
start_ixd odbc$which
[ -n "$preload" ] && export LD_PRELOAD="$preload"
PORT=$(cat "$DIR/port")
printf '[ixdb]\nDriver = %s\n' "$LIB" > "$DIR/odbcinst.ini"
printf '[t]\nDriver = ixdb\nHost = 127.0.0.1\nService = %s\nDatabase = cli\nUID = informix\nPWD = in4mix\n' \
    "$PORT" > "$DIR/odbc.ini"
export ODBCSYSINI="$DIR" ODBCINI="$DIR/odbc.ini" HOME="$DIR" PORT
echo "CREATE DATABASE cli WITH LOG" | isql -b -k "DRIVER=ixdb;HOST=127.0.0.1;SERVICE=$PORT;UID=informix;PWD=in4mix" > /dev/null

want="connected
rows 2
1|one|12.50|2024-01-02| -3 03:27:01.12345
2|NULL|NULL|NULL|NULL
error 42S02 [ixdb][libixodbc]The specified table (nosuch) is not in the database.
after rollback 2
long 100000 same
string 1|one"

if [ "$which" = perl ]; then
out=$(perl - 2>&1 << 'EOF'
use strict; use warnings; use DBI;
my $dbh = DBI->connect("dbi:ODBC:DSN=t", undef, undef, {RaiseError => 0, PrintError => 0, AutoCommit => 1}) or die $DBI::errstr;
print "connected\n";
$dbh->do("CREATE TABLE tp (id INTEGER, name VARCHAR(20), amount DECIMAL(8,2), d DATE, iv INTERVAL DAY(3) TO FRACTION(5))") or die $dbh->errstr;
my $ins = $dbh->prepare("INSERT INTO tp VALUES (?, ?, ?, ?, ?)");
$ins->execute(1, "one", "12.5", "2024-01-02", "-3 03:27:01.12345") or die $ins->errstr;
$ins->execute(2, undef, undef, undef, undef) or die $ins->errstr;
my ($n) = $dbh->selectrow_array("SELECT COUNT(*) FROM tp");
print "rows $n\n";
my $sth = $dbh->prepare("SELECT id, name, amount, d, iv FROM tp ORDER BY id");
$sth->execute;
while (my @r = $sth->fetchrow_array) { print join("|", map { defined $_ ? $_ : "NULL" } @r), "\n"; }
$dbh->do("SELECT * FROM nosuch") and die "no error";
my $msg = $dbh->errstr; $msg =~ s/ \(SQL-[^)]*\)$//; $msg =~ s/\s+$//;
print "error ", $dbh->state, " $msg\n";
$dbh->{AutoCommit} = 0;
$dbh->do("DELETE FROM tp");
$dbh->rollback;
$dbh->{AutoCommit} = 1;
($n) = $dbh->selectrow_array("SELECT COUNT(*) FROM tp");
print "after rollback $n\n";
# longer than odbc_putdata_start (32768): DBD::ODBC sends it with SQLPutData
$dbh->do("CREATE TABLE tl (id INTEGER, tx TEXT)") or die $dbh->errstr;
my $long = join("", map { chr(97 + ($_ * 7 + int($_ / 26)) % 26) } 0 .. 99999);
my $li = $dbh->prepare("INSERT INTO tl VALUES (?, ?)");
$li->execute(1, $long) or die $li->errstr;
$dbh->{LongReadLen} = 200000;
my ($back) = $dbh->selectrow_array("SELECT tx FROM tl WHERE id = 1");
print "long ", length($back), " ", ($back eq $long ? "same" : "different"), "\n";
$dbh->disconnect;
my $d2 = DBI->connect("dbi:ODBC:DRIVER={ixdb};HOST=127.0.0.1;SERVICE=$ENV{PORT};DATABASE=cli;UID=informix;PWD=in4mix") or die $DBI::errstr;
my @r = $d2->selectrow_array("SELECT id, name FROM tp WHERE id = 1");
print "string ", join("|", @r), "\n";
$d2->disconnect;
EOF
)
else
out=$(php 2>&1 << 'EOF'
<?php
$c = odbc_connect("t", "", "");
if (!$c) { echo "connect failed: ", odbc_errormsg(), "\n"; exit(1); }
echo "connected\n";
odbc_exec($c, "CREATE TABLE tp (id INTEGER, name VARCHAR(20), amount DECIMAL(8,2), d DATE, iv INTERVAL DAY(3) TO FRACTION(5))");
$ins = odbc_prepare($c, "INSERT INTO tp VALUES (?, ?, ?, ?, ?)");
odbc_execute($ins, [1, "one", "12.5", "2024-01-02", "-3 03:27:01.12345"]);
odbc_execute($ins, [2, null, null, null, null]);
$r = odbc_exec($c, "SELECT COUNT(*) FROM tp"); odbc_fetch_row($r);
echo "rows ", odbc_result($r, 1), "\n";
$r = odbc_exec($c, "SELECT id, name, amount, d, iv FROM tp ORDER BY id");
while ($row = odbc_fetch_array($r)) {
    echo implode("|", array_map(function ($v) { return $v === null ? "NULL" : $v; }, array_values($row))), "\n";
}
$r = @odbc_exec($c, "SELECT * FROM nosuch");
$msg = preg_replace('/^\[unixODBC\]/', '', odbc_errormsg($c));
$msg = preg_replace('/, SQL state .*$/', '', $msg);
echo "error ", odbc_error($c), " ", $msg, "\n";
odbc_autocommit($c, false);
odbc_exec($c, "DELETE FROM tp");
odbc_rollback($c);
odbc_autocommit($c, true);
$r = odbc_exec($c, "SELECT COUNT(*) FROM tp"); odbc_fetch_row($r);
echo "after rollback ", odbc_result($r, 1), "\n";
// a parameter 'file name' in quotes: PHP sends the file with SQLPutData
odbc_exec($c, "CREATE TABLE tl (id INTEGER, tx TEXT)");
$long = "";
for ($i = 0; $i < 100000; $i++) $long .= chr(97 + ($i * 7 + intdiv($i, 26)) % 26);
$f = getenv("HOME") . "/long.txt";
file_put_contents($f, $long);
$li = odbc_prepare($c, "INSERT INTO tl VALUES (?, ?)");
if (!odbc_execute($li, [1, "'$f'"])) echo "long insert: ", odbc_errormsg($c), "\n";
$r = odbc_exec($c, "SELECT tx FROM tl WHERE id = 1");
odbc_longreadlen($r, 200000);
odbc_fetch_row($r);
$back = odbc_result($r, 1);
echo "long ", strlen($back), " ", ($back === $long ? "same" : "different"), "\n";
odbc_close($c);
$port = getenv("PORT");
$d = odbc_connect("DRIVER={ixdb};HOST=127.0.0.1;SERVICE=$port;DATABASE=cli", "informix", "in4mix");
$r = odbc_exec($d, "SELECT id, name FROM tp WHERE id = 1"); odbc_fetch_row($r);
echo "string ", odbc_result($r, 1), "|", odbc_result($r, 2), "\n";
odbc_close($d);
EOF
)
fi
# PHP's odbc extension runs as an ODBC 2 application: the driver manager
# gives the SQLSTATE of ODBC 2 (S0002 for 42S02)
[ "$which" = php ] && want=$(echo "$want" | sed 's/^error 42S02/error S0002/')
check "$which through libixodbc" "$want" "$out"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
