# Run once per prepared database (`rails runner`): a private Redmine behind a sign-in, with one
# admin whose password is known and one project whose issues the jobs work on.
password = ENV.fetch('REDMINE_ADMIN_PASSWORD')
Setting.login_required = '1'
Setting.default_language = 'en'
Setting.self_registration = '0'
Setting.rest_api_enabled = '0'
Setting.host_name = 'localhost'
admin = User.find_by!(login: 'admin')
admin.password = password
admin.password_confirmation = password
admin.must_change_passwd = false
admin.firstname = 'Ada'
admin.lastname = 'Admin'
admin.mail = 'admin@example.com'
admin.save!
project = Project.new(name: 'Website', identifier: 'website', description: 'The company website', is_public: false)
project.enabled_module_names = %w[issue_tracking]
project.trackers = Tracker.all
project.save!
puts "ok project=#{project.id} trackers=#{project.trackers.map(&:name).join(',')} statuses=#{IssueStatus.count} priorities=#{IssuePriority.count}"
