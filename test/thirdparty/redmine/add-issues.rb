# `rails runner`: files test issues in the Website project as the admin, through Redmine's own
# models (ISSUES_JSON: [{subject, description, status}]); prints their numbers.
require 'json'
project = Project.find_by!(identifier: 'website')
author = User.find_by!(login: 'admin')
User.current = author
ids = JSON.parse(ENV.fetch('ISSUES_JSON')).map do |spec|
  issue = Issue.new(project: project, author: author, tracker: project.trackers.first,
                    subject: spec['subject'], description: spec['description'].to_s)
  issue.status = IssueStatus.find_by!(name: spec['status']) if spec['status']
  issue.save!
  issue.id
end
puts "ids=#{ids.join(',')}"
