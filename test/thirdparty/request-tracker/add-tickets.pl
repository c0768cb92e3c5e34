# Opens tickets through RT's own objects, as root (the signed-in helpdesk user would):
# TICKETS_JSON is a list of {queue, subject, description?, requestor?, status?, owner?}.
# Prints "ids=1,2,…" on success.
use strict;
use warnings;
use lib '/usr/share/request-tracker5/lib';
use JSON ();
use MIME::Entity;
use RT;
RT::LoadConfig();
RT::Init();

my $root = RT::CurrentUser->new(RT->SystemUser);
$root->Load('root');
die "no root user\n" unless $root->id;
my @ids;
for my $t (@{ JSON::decode_json($ENV{TICKETS_JSON}) }) {
    my $queue = RT::Queue->new($root);
    $queue->Load($t->{queue});
    die "no queue $t->{queue}\n" unless $queue->id;
    my $mime = MIME::Entity->build(
        Type    => 'text/plain',
        Charset => 'UTF-8',
        Data    => [ Encode::encode('UTF-8', $t->{description} // '') ],
    );
    my $ticket = RT::Ticket->new($root);
    my ($id, undef, $msg) = $ticket->Create(
        Queue     => $queue->id,
        Subject   => $t->{subject},
        MIMEObj   => $mime,
        ($t->{requestor} ? (Requestor => $t->{requestor}) : ()),
        ($t->{status}    ? (Status    => $t->{status})    : ()),
        ($t->{owner}     ? (Owner     => $t->{owner})     : ()),
    );
    die "ticket “$t->{subject}”: $msg\n" unless $id;
    push @ids, $id;
}
print 'ids=', join(',', @ids), "\n";
