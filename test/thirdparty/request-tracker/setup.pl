# One-time setup of a fresh RT database, through RT's own objects: root's password (RT_PASSWORD),
# and the helpdesk's queues besides General. Run with RT_SITE_CONFIG pointing at the run's config.
use strict;
use warnings;
use lib '/usr/share/request-tracker5/lib';
use RT;
RT::LoadConfig();
RT::Init();

my $root = RT::User->new(RT->SystemUser);
$root->Load('root');
die "no root user\n" unless $root->id;
my ($ok, $msg) = $root->SetPassword($ENV{RT_PASSWORD});
die "root password: $msg\n" unless $ok;
($ok, $msg) = $root->SetRealName('Sam Carter');
($ok, $msg) = $root->SetEmailAddress('sam.carter@example.com');
die "root email: $msg\n" unless $ok;

for my $q (['IT Support', 'Laptops, accounts, printers'], ['Facilities', 'Building, desks, heating']) {
    my $queue = RT::Queue->new(RT->SystemUser);
    ($ok, $msg) = $queue->Create(Name => $q->[0], Description => $q->[1]);
    die "queue $q->[0]: $msg\n" unless $ok;
}
print "setup ok\n";
